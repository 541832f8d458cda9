import Foundation
import LigasCacheStore
import LigasComposition
import LigasDomain
import LigasRemote
import LigasSampleDataLocation
import LigasTestSupport
import Logging
import Testing

/// The engine over the two RapidAPI providers, impersonated on loopback, with a real SQLite file:
/// what each feed costs in requests, where each field comes from, and what a spent quota, a 429,
/// a 5xx and a malformed body do.
final class ProviderEnvironment: Sendable {
    typealias P = RapidAPIPayloads
    let cdn: LoopbackHTTPServer
    let flashLive: RapidAPIProvider
    let transfermarkt: RapidAPIProvider
    let client = AsyncHTTPClientAdapter()
    let directory = TemporaryDirectory()
    let clock = TestClock()
    let logs = LogRecorder()

    private init(cdn: LoopbackHTTPServer, flashLive: RapidAPIProvider, transfermarkt: RapidAPIProvider) {
        self.cdn = cdn
        self.flashLive = flashLive
        self.transfermarkt = transfermarkt
    }

    static func run(_ body: (ProviderEnvironment) async throws -> Void) async throws {
        let cdn = try await LoopbackHTTPServer.start(ImageCDN.route)
        let flashLive = try await RapidAPIProvider.start(.flashLive, cdn: cdn.baseURL)
        let transfermarkt = try await RapidAPIProvider.start(.transfermarkt, cdn: cdn.baseURL)
        let environment = ProviderEnvironment(cdn: cdn, flashLive: flashLive, transfermarkt: transfermarkt)
        let outcome = await asyncResult { try await body(environment) }
        try await environment.client.shutdown()
        for server in [flashLive.server, transfermarkt.server, cdn] { try await server.shutdown() }
        try outcome.get()
    }

    /// A new engine over the same cache file, as after a restart.
    func engine(budget: Int = 500, seasons: [LeagueSeason] = [], key: String = P.apiKey) throws -> LigasEngine {
        let store = try SQLiteCacheStore(fileURL: directory.url.appendingPathComponent("cache.sqlite"), imageCapacityBytes: 1 << 20)
        var configuration = EngineConfiguration(sources: [
            RemoteSource(dataSource: .flashLive, baseURL: flashLive.baseURL, apiKey: APIKey(key)),
            RemoteSource(dataSource: .transfermarkt, baseURL: transfermarkt.baseURL, apiKey: APIKey(key)),
        ])
        configuration.monthlyRequestBudget = budget
        configuration.seasonOverrides = seasons
        configuration.remoteFirstBudget = .seconds(600)
        return LigasEngine.compose(
            configuration: configuration, feedStore: store, imageStore: store, requestCounts: store,
            httpClient: SchemeRoutingHTTPClient(http: client), currentDate: clock.currentDate, logger: logs.logger)
    }

    /// An engine on the bundled sample data over the same cache file: what ran before a switch to RapidAPI.
    func sampleEngine() throws -> LigasEngine {
        let store = try SQLiteCacheStore(fileURL: directory.url.appendingPathComponent("cache.sqlite"), imageCapacityBytes: 1 << 20)
        return LigasEngine.compose(
            configuration: EngineConfiguration(sources: [RemoteSource(dataSource: .ligasREST, baseURL: BundledSampleData.baseURL)]),
            feedStore: store, imageStore: store, httpClient: SchemeRoutingHTTPClient(http: client),
            currentDate: clock.currentDate, logger: logs.logger)
    }

    /// Leagues, teams, squads, matches and standings of both leagues, as a user's first session would.
    func coldStart(_ engine: LigasEngine) async throws {
        _ = await engine.leagues()
        for league in ["serie-a", "serie-b"] {
            for team in try await engine.teams(league: league).value { _ = try await engine.players(team: team.id) }
            _ = try await engine.matches(league: league)
            _ = try await engine.standings(league: league)
        }
    }
}

@Suite("Acceptance: LigaPro from FlashLive and Transfermarkt")
struct ProviderAcceptanceTests {
    typealias P = RapidAPIPayloads

    @Test("A cold start for both leagues costs the documented requests at each provider, every one with the key and the provider's host; a second pass costs none")
    func coldStartCost() async throws {
        try await ProviderEnvironment.run { environment in
            let engine = try environment.engine()

            try await environment.coldStart(engine)

            #expect(environment.flashLive.requests.count == P.coldStartRequests.flashLive)
            #expect(environment.transfermarkt.requests.count == P.coldStartRequests.transfermarkt)
            for provider in [environment.flashLive, environment.transfermarkt] {
                #expect(provider.requests.allSatisfy {
                    $0.headers["x-rapidapi-key"] == P.apiKey && $0.headers["x-rapidapi-host"] == provider.kind.host
                })
            }
            #expect(engine.requestBudgets().map(\.used) == [P.coldStartRequests.flashLive, P.coldStartRequests.transfermarkt])

            try await environment.coldStart(engine)  // matches are remote first: they ask again
            #expect(environment.flashLive.requests.count == P.coldStartRequests.flashLive + 4)
            #expect(environment.transfermarkt.requests.count == P.coldStartRequests.transfermarkt)
        }
    }

    @Test("Serie A entirely from FlashLive; Serie B's clubs and squads from Transfermarkt, its table and matches from FlashLive; each entity says where it came from")
    func whoServesWhat() async throws {
        try await ProviderEnvironment.run { environment in
            let engine = try environment.engine()

            let serieA = try await engine.teams(league: "serie-a").value
            #expect(serieA.map(\.id) == P.serieATeams.map(\.id) && serieA.allSatisfy { $0.dataSource == .flashLive })
            let squadA = try await engine.players(team: "Fl1Eme02").value
            #expect(squadA.count == 5 && squadA.allSatisfy { $0.dataSource == .flashLive })
            let serieB = try await engine.teams(league: "serie-b").value
            #expect(serieB.map(\.name) == P.serieBClubsAtTransfermarkt.map(\.name) && serieB.allSatisfy { $0.dataSource == .transfermarkt })
            let squadB = try await engine.players(team: "41301").value
            #expect(squadB.map(\.nationality) == ["Ecuador", "Argentina", "Ecuador"] && squadB.allSatisfy { $0.dataSource == .transfermarkt })
            let tableB = try await engine.standings(league: "serie-b").value
            #expect(tableB.map(\.team.name) == ["Imbabura", "Cumbaya", "Chacaritas"] && tableB.allSatisfy { $0.team.dataSource == .flashLive })
            let squadFromTable = try await engine.players(team: "Fl2Imb02").value
            #expect(squadFromTable.allSatisfy { $0.dataSource == .flashLive }, "a team id from FlashLive's table gets FlashLive's squad")

            let matchesB = try await engine.matches(league: "serie-b").value
            #expect(matchesB.previous.count == 1 && matchesB.upcoming.isEmpty, "fixtures answered 404: none left")
            #expect(matchesB.previous[0].homeScore == 2 && matchesB.previous[0].awayScore == 0)
            let leagues = await engine.leagues().value
            #expect(leagues.map(\.dataSource) == [.flashLive, .flashLive])
        }
    }

    @Test("Switching from the sample data to RapidAPI: at start the sample's teams, squads, matches and tables are dropped, so they cannot answer for 7 more days")
    func switchingSourcesDropsTheirFeeds() async throws {
        try await ProviderEnvironment.run { environment in
            let sample = try environment.sampleEngine()
            _ = await sample.leagues()
            _ = try await sample.teams(league: "serie-a")
            _ = try await sample.players(team: "emelec")
            _ = try await sample.matches(league: "serie-b")
            _ = try await sample.standings(league: "serie-a")

            let engine = try environment.engine()
            let report = try await engine.validateCache()

            #expect(report.outdatedLeagues)
            #expect(Set(report.outdatedFeeds) == ["teams/serie-a", "players/emelec", "matches/serie-b", "standings/serie-a"])
            let teams = try await engine.teams(league: "serie-a")
            #expect(teams.origin == .remote && teams.value.allSatisfy { $0.dataSource == .flashLive })
            #expect(try await engine.validateCache().outdatedFeeds.isEmpty)
        }
    }

    @Test("A squad asked before any team list: its team is found in the leagues' lists (loaded as teams would be); an unknown team or league is notFound")
    func squadBeforeTeams() async throws {
        try await ProviderEnvironment.run { environment in
            let engine = try environment.engine()

            let squad = try await engine.players(team: "62012")

            #expect(squad.value.allSatisfy { $0.dataSource == .transfermarkt } && squad.value.count == 3)
            await #expect(throws: LigasError.notFound("no team 'no-such-team' in any league")) {
                try await engine.players(team: "no-such-team")
            }
            let before = environment.flashLive.requests.count + environment.transfermarkt.requests.count
            await #expect(throws: LigasError.notFound("no league 'serie-c'")) { try await engine.standings(league: "serie-c") }
            #expect(environment.flashLive.requests.count + environment.transfermarkt.requests.count == before)
        }
    }

    @Test("Teams come out of the table: standings after teams cost nothing more, and teams after standings neither")
    func teamsAndStandingsShareOneRequest() async throws {
        try await ProviderEnvironment.run { environment in
            let engine = try environment.engine(seasons: [
                LeagueSeason(league: "serie-a", seasonID: P.serieASeason.season, stageID: P.serieASeason.stage),
            ])

            let table = try await engine.standings(league: "serie-a")
            let teams = try await engine.teams(league: "serie-a")

            #expect(table.origin == .remote && teams.origin == .cache)
            #expect(teams.value == table.value.map(\.team))
            #expect(environment.flashLive.requests.map { URLComponents(string: $0.path)?.path } == ["/v1/tournaments/standings"],
                    "configured season ids: no tournaments list")
        }
    }

    @Test("A team's logo from FlashLive's table and a player's photo from Transfermarkt stream from where the payloads say, at no quota")
    func images() async throws {
        try await ProviderEnvironment.run { environment in
            let engine = try environment.engine()

            var logo = Data()
            for try await chunk in try await engine.image(of: .team("Fl1Bsc01")).value { logo.append(chunk) }
            var photo = Data()
            for try await chunk in try await engine.image(of: .player("413018")).value { photo.append(chunk) }

            #expect(logo == Fixtures.png && photo == Fixtures.png)
            #expect(environment.cdn.requests.map(\.path) == ["/res/image/data/bsc-logo.png", "/portrait/medium/413018.jpg?lm=1"])
            #expect(engine.requestBudgets().map(\.used) == [environment.flashLive.requests.count, environment.transfermarkt.requests.count])
        }
    }

    @Test("The monthly budget spent: quotaExceeded without a request, the journal told once; a fresh cache still answers; the count survives a restart")
    func budgetSpent() async throws {
        try await ProviderEnvironment.run { environment in
            let engine = try environment.engine(budget: 3)
            _ = try await engine.teams(league: "serie-a")  // the list and the table: 2
            _ = try await engine.players(team: "Fl1Bsc01")  // 3: the budget is spent

            await #expect(throws: LigasError.self) { try await engine.players(team: "Fl1Eme02") }
            #expect(environment.flashLive.requests.count == 3)
            #expect(try await engine.teams(league: "serie-a").origin == .cache)
            do {
                _ = try await engine.matches(league: "serie-a")
                Issue.record("expected quotaExceeded")
            } catch LigasError.quotaExceeded(let why) {
                #expect(why.contains("flashlive") && why.contains("budget of 3"), "\(why)")
            }
            let told = environment.logs.all.filter { $0.message.hasPrefix("request refused") }
            #expect(told.count == 1)
            #expect(environment.logs.messages.contains("monthly request budget spent; further requests are refused until next month"))

            let restarted = try environment.engine(budget: 3)
            #expect(restarted.requestBudgets().first?.used == 3)
            #expect(restarted.requestBudgets().first?.remaining == 0)
            await #expect(throws: LigasError.self) { try await restarted.players(team: "Fl1Ldu03") }
            #expect(environment.flashLive.requests.count == 3)
        }
    }

    @Test("The provider answers 429: quotaExceeded naming it, the journal told; cached data answers while fresh")
    func rateLimited() async throws {
        try await ProviderEnvironment.run { environment in
            let engine = try environment.engine()
            _ = try await engine.teams(league: "serie-a")
            environment.flashLive.misbehave(.rateLimited)

            do {
                _ = try await engine.players(team: "Fl1Bsc01")
                Issue.record("expected quotaExceeded")
            } catch LigasError.quotaExceeded(let why) {
                #expect(why.contains("answered HTTP 429"), "\(why)")
            }
            #expect(try await engine.teams(league: "serie-a").origin == .cache)
            #expect(environment.logs.messages.contains("provider answered HTTP 429 (rate or quota limit)"))
        }
    }

    @Test("A 5xx or a malformed body: invalidData, and what was cached stays cached", arguments: [RapidAPIProvider.Fault.unavailable, .malformedBody])
    func brokenProvider(fault: RapidAPIProvider.Fault) async throws {
        try await ProviderEnvironment.run { environment in
            let engine = try environment.engine()
            let before = try await engine.matches(league: "serie-a").value
            environment.flashLive.misbehave(fault)

            do {
                _ = try await engine.standings(league: "serie-b")
                Issue.record("expected invalidData")
            } catch LigasError.invalidData {
            }
            let after = try await engine.matches(league: "serie-a")
            #expect(after.origin == .cache && after.value == before, "the remote failed: the cached matches answer")
        }
    }

    @Test("RapidAPI's rate-limit headers are kept: remaining is the lesser of the budget's rest and what the provider says; a provider at 0 gets no request")
    func reportedRemaining() async throws {
        let cdn = try await LoopbackHTTPServer.start(ImageCDN.route)
        let flashLive = try await RapidAPIProvider.start(.flashLive, cdn: cdn.baseURL, remaining: 2)
        let directory = TemporaryDirectory()
        let client = AsyncHTTPClientAdapter()
        let outcome = await asyncResult {
            let store = try SQLiteCacheStore(fileURL: directory.url.appendingPathComponent("cache.sqlite"))
            let configuration = EngineConfiguration(sources: [RemoteSource(dataSource: .flashLive, baseURL: flashLive.baseURL, apiKey: APIKey(P.apiKey))])
            let engine = LigasEngine.compose(
                configuration: configuration, feedStore: store, imageStore: store, requestCounts: store,
                httpClient: client, logger: LogRecorder().logger)

            _ = try await engine.teams(league: "serie-a")  // list and table: the provider says 0 left
            let usage = try #require(engine.requestBudgets().first)
            #expect(usage.used == 2 && usage.reportedLimit == RapidAPIProvider.planLimit && usage.reportedRemaining == 0)
            #expect(usage.remaining == 0)
            await #expect(throws: LigasError.self) { try await engine.players(team: "Fl1Bsc01") }
            #expect(flashLive.requests.count == 2)
        }
        try await client.shutdown()
        try await flashLive.shutdown()
        try await cdn.shutdown()
        try outcome.get()
    }
}
