import Foundation
import LigasTestSupport
import Testing

/// The real ligasd with `LIGASD_SOURCE=rapidapi` against loopback servers impersonating FlashLive
/// and Transfermarkt (and an image host), the key handed over as a systemd credential, asked
/// through `ligas-client --json`.
@Suite("ligasd on RapidAPI providers, end to end")
struct RapidAPIEndToEndTests {
    typealias P = RapidAPIPayloads

    struct Providers {
        let flashLive: RapidAPIProvider
        let transfermarkt: RapidAPIProvider
        let cdn: LoopbackHTTPServer
    }

    /// ligasd on the impersonated providers; `extra` adds flags.
    static func withDaemon(extra: [String] = [], _ body: (RunningDaemon, Providers) async throws -> Void) async throws {
        let cdn = try await LoopbackHTTPServer.start(ImageCDN.route)
        let providers = Providers(
            flashLive: try await RapidAPIProvider.start(.flashLive, cdn: cdn.baseURL),
            transfermarkt: try await RapidAPIProvider.start(.transfermarkt, cdn: cdn.baseURL), cdn: cdn)
        let credentials = TemporaryDirectory()
        try (P.apiKey + "\n").write(to: credentials.url.appendingPathComponent("api-key"), atomically: true, encoding: .utf8)
        let outcome = await asyncResult {
            let daemon = try await RunningDaemon(
                remote: cdn.baseURL,
                extra: ["--source", "rapidapi", "--flashlive-url", providers.flashLive.baseURL.absoluteString] + extra,
                environment: [
                    "LIGASD_TRANSFERMARKT_URL": providers.transfermarkt.baseURL.absoluteString,
                    "CREDENTIALS_DIRECTORY": credentials.url.path,
                ])
            let outcome = await asyncResult { try await body(daemon, providers) }
            _ = await daemon.stop()
            try outcome.get()
        }
        for server in [providers.flashLive.server, providers.transfermarkt.server, cdn] { try await server.shutdown() }
        try outcome.get()
    }

    static func json(_ arguments: [String], _ daemon: RunningDaemon) async throws -> [String: Any] {
        let run = try await CommandRun.client(arguments + ["--json"], socket: daemon.socketPath)
        guard run.status == 0 else { throw TestFailure("ligas-client \(arguments) exited \(run.status): \(run.errorOutput)") }
        return try #require(try run.jsonObject())
    }

    static func values(_ object: [String: Any]) throws -> [[String: Any]] {
        try #require(object["value"] as? [[String: Any]])
    }

    @Test("A cold start through ligas-client: teams, players, matches with scores, standings and an image of both leagues, at the documented request count, with the key and host on every request and nowhere in the log")
    func coldStart() async throws {
        try await Self.withDaemon { daemon, providers in
            let leagues = try Self.values(try await Self.json(["leagues"], daemon))
            #expect(leagues.compactMap { $0["id"] as? String } == ["serie-a", "serie-b"])
            #expect(leagues.allSatisfy { $0["dataSource"] as? String == "flashlive" })

            let teamsA = try Self.values(try await Self.json(["teams", "serie-a"], daemon))
            #expect(teamsA.compactMap { $0["id"] as? String } == P.serieATeams.map(\.id))
            #expect(teamsA.allSatisfy { $0["dataSource"] as? String == "flashlive" })
            for team in P.serieATeams {
                let squad = try Self.values(try await Self.json(["players", team.id], daemon))
                #expect(squad.compactMap { $0["position"] as? String } == ["goalkeeper", "defender", "midfielder", "forward", "coach"])
                #expect(squad.compactMap { $0["number"] as? Int } == [1, 4, 8])
                #expect(squad.filter { $0["photoURL"] is String }.count == 4)
            }
            let teamsB = try Self.values(try await Self.json(["teams", "serie-b"], daemon))
            #expect(teamsB.compactMap { $0["name"] as? String } == P.serieBClubsAtTransfermarkt.map(\.name))
            #expect(teamsB.allSatisfy { $0["dataSource"] as? String == "transfermarkt" })
            for club in P.serieBClubsAtTransfermarkt {
                let squad = try Self.values(try await Self.json(["players", club.id], daemon))
                #expect(squad.compactMap { $0["nationality"] as? String } == ["Ecuador", "Argentina", "Ecuador"])
                #expect(squad.allSatisfy { $0["dataSource"] as? String == "transfermarkt" })
            }

            let matchesA = try #require(try await Self.json(["matches", "serie-a"], daemon)["value"] as? [String: Any])
            let previousA = try #require(matchesA["previous"] as? [[String: Any]])
            #expect(previousA.compactMap { $0["homeScore"] as? Int } == [3, 1, 0])
            #expect(previousA.compactMap { $0["awayScore"] as? Int } == [1, 1, 2])
            #expect(previousA.compactMap { $0["winner"] as? String } == ["Barcelona SC", "Draw", "Barcelona SC"])
            #expect((matchesA["upcoming"] as? [Any])?.count == 2)
            let matchesB = try #require(try await Self.json(["matches", "serie-b"], daemon)["value"] as? [String: Any])
            #expect((matchesB["previous"] as? [Any])?.count == 1)
            #expect((matchesB["upcoming"] as? [Any])?.isEmpty == true, "FlashLive's 404 for fixtures: none left")

            let tableA = try Self.values(try await Self.json(["standings", "serie-a"], daemon))
            #expect(tableA.compactMap { $0["points"] as? Int } == [9, 4, 3, 1])
            #expect(tableA.compactMap { ($0["team"] as? [String: Any])?["name"] as? String } == P.serieATeams.map(\.name))
            let tableB = try Self.values(try await Self.json(["standings", "serie-b"], daemon))
            #expect(tableB.compactMap { $0["rank"] as? Int } == [1, 2, 3])

            // The cold start is over: its cost, at each provider, every request credentialed.
            #expect(providers.flashLive.requests.count == P.coldStartRequests.flashLive)
            #expect(providers.transfermarkt.requests.count == P.coldStartRequests.transfermarkt)
            for provider in [providers.flashLive, providers.transfermarkt] {
                #expect(provider.requests.allSatisfy {
                    $0.headers["x-rapidapi-key"] == P.apiKey && $0.headers["x-rapidapi-host"] == provider.kind.host
                })
            }

            let output = FileManager.default.temporaryDirectory.appendingPathComponent("ligas-\(UUID().uuidString).png")
            defer { try? FileManager.default.removeItem(at: output) }
            let image = try await CommandRun.client(["image", "--team", "Fl1Bsc01", "-o", output.path, "--json"], socket: daemon.socketPath)
            #expect(image.status == 0, "\(image.errorOutput)")
            #expect(FileManager.default.contents(atPath: output.path) == Fixtures.png)
            #expect(providers.cdn.requests.map(\.path) == ["/res/image/data/bsc-logo.png"])

            let status = try await Self.json(["status"], daemon)
            let quota = try #require(status["quota"] as? [[String: Any]])
            // Answered in a task (the quota is read from the cache file), yet not counting itself.
            #expect(status["inFlightRequests"] as? Int == 0)
            #expect(quota.compactMap { $0["provider"] as? String } == ["flashlive", "transfermarkt"])
            #expect(quota.compactMap { $0["used"] as? Int } == [P.coldStartRequests.flashLive, P.coldStartRequests.transfermarkt])
            #expect(quota.compactMap { $0["remaining"] as? Int }
                == [500 - P.coldStartRequests.flashLive, 500 - P.coldStartRequests.transfermarkt])
            #expect(quota.compactMap { $0["reportedRemaining"] as? Int }
                == [500 - P.coldStartRequests.flashLive, 500 - P.coldStartRequests.transfermarkt])

            #expect(!daemon.child.errorOutput.contains(P.apiKey), "the key is never logged")
        }
    }

    @Test("The monthly budget spent: ligas-client exits 5 with quotaExceeded, status shows none left, the log says so once, and cached teams still answer")
    func budgetSpent() async throws {
        try await Self.withDaemon(extra: ["--monthly-requests", "2"]) { daemon, providers in
            _ = try await Self.json(["teams", "serie-a"], daemon)  // the tournaments list and the table: 2

            let refused = try await CommandRun.client(["players", "Fl1Bsc01"], socket: daemon.socketPath)
            #expect(refused.status == 5, "\(refused.errorOutput)")
            #expect(refused.errorOutput.hasPrefix("ligas-client: quotaExceeded: flashlive: this month's budget of 2 requests is spent"),
                    "\(refused.errorOutput)")
            #expect(providers.flashLive.requests.count == 2)

            let cached = try await Self.json(["teams", "serie-a"], daemon)
            #expect(cached["source"] as? String == "cache")

            let status = try await CommandRun.client(["status"], socket: daemon.socketPath)
            #expect(status.lines.contains { $0.hasPrefix("flashlive requests") && $0.contains("2 used, 0 left of 2") }, "\(status.text)")
            let log = daemon.child.errorOutput
            #expect(log.components(separatedBy: "request refused: quota exceeded").count == 2, "told once")
            #expect(log.contains("MESSAGE_ID=5d9af89d240b46b088d9c9a710833ed1"))
        }
    }

    @Test("The provider answers 429: ligas-client exits 5 with quotaExceeded naming HTTP 429; a fresh cache still answers")
    func rateLimited() async throws {
        try await Self.withDaemon { daemon, providers in
            _ = try await Self.json(["standings", "serie-a"], daemon)
            providers.flashLive.misbehave(.rateLimited)

            let refused = try await CommandRun.client(["players", "Fl1Eme02"], socket: daemon.socketPath)
            #expect(refused.status == 5, "\(refused.errorOutput)")
            #expect(refused.errorOutput.contains("quotaExceeded") && refused.errorOutput.contains("answered HTTP 429"), "\(refused.errorOutput)")
            #expect(try await Self.json(["teams", "serie-a"], daemon)["source"] as? String == "cache")
        }
    }
}
