import Foundation
import LigasSampleDataLocation
import LigasTestSupport
import Testing

/// What a user sees through `ligas-client` when the daemon's remotes are configured, missing or
/// wrong: a `seed-football-api` source, `--offline` image lookups, unknown leagues and teams.
@Suite("ligas-client against the daemon's remote sources")
struct RemoteSourcesEndToEndTests {
    /// A daemon whose ligas-rest remote serves the sample data on loopback, and maybe a seed source.
    static func withDaemon(seed: LoopbackHTTPServer? = nil, _ body: (RunningDaemon, LoopbackHTTPServer) async throws -> Void) async throws {
        try await DaemonEndToEndTests.withDaemon(extra: seed.map { ["--seed-remote", $0.baseURL.absoluteString] } ?? [], body)
    }

    @Test("LIGASD_SEED_REMOTE: the league 'seed' is listed, and its teams and matches come from the seed server")
    func seedRemoteIsReachable() async throws {
        let seed = try await LoopbackHTTPServer.start(SeedFootballAPI.route)
        let outcome = await asyncResult {
            try await Self.withDaemon(seed: seed) { daemon, _ in
                let leagues = try #require(try await CommandRun.client(["leagues", "--json"], socket: daemon.socketPath).jsonObject())
                let seedLeague = (leagues["value"] as? [[String: Any]])?.first { $0["id"] as? String == "seed" }
                #expect(seedLeague?["dataSource"] as? String == "seed-football-api")

                let teams = try await CommandRun.client(["teams", "seed", "--json"], socket: daemon.socketPath)
                #expect(teams.status == 0, "\(teams.errorOutput)")
                let teamValues = try #require(try teams.jsonObject()?["value"] as? [[String: Any]])
                #expect(teamValues.compactMap { $0["id"] as? String } == ["red-dragons", "cool-eagles"])

                let matches = try await CommandRun.client(["matches", "seed", "--json"], socket: daemon.socketPath)
                #expect(matches.status == 0, "\(matches.errorOutput)")
                let matchValues = try #require(try matches.jsonObject()?["value"] as? [String: Any])
                #expect((matchValues["previous"] as? [Any])?.count == 1)
                #expect(seed.requests.map(\.path) == ["/teams", "/teams/matches"])
            }
        }
        try await seed.shutdown()
        try outcome.get()
    }

    @Test("image --team --offline on an empty cache: exit 3 (nothing cached), and the remote gets no request")
    func offlineImageNeverTouchesNetwork() async throws {
        try await Self.withDaemon { daemon, server in
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("ligas-\(UUID().uuidString).png")
            let run = try await CommandRun.client(["image", "--team", "emelec", "--offline", "-o", output.path], socket: daemon.socketPath)

            #expect(run.status == 3, "\(run.errorOutput)")
            #expect(server.requests.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
    }

    @Test("matches of an unknown league, or of a team the league does not have: exit 2 (not found)", arguments: [
        ["matches", "no-such-league"], ["matches", "serie-a", "--team", "no-such-team"],
    ])
    func unknownLeagueOrTeam(arguments: [String]) async throws {
        try await Self.withDaemon { daemon, _ in
            let run = try await CommandRun.client(arguments, socket: daemon.socketPath)
            #expect(run.status == 2, "\(run.errorOutput)")
            #expect(run.errorOutput.contains("notFound"), "\(run.errorOutput)")
        }
    }
}
