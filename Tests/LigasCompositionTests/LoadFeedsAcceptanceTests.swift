import Foundation
import LigasCacheStore
import LigasComposition
import LigasDomain
import LigasTestSupport
import Testing

/// Every scenario of the specs (online or offline, crossed with an empty, fresh or expired
/// cache), composed exactly as the daemon composes it: real HTTP on loopback, real SQLite file.
@Suite("Acceptance: teams, players and standings (cache first)")
struct CacheFirstAcceptanceTests {
    /// Teams of a league, players of a team and a league's standings follow the same spec; each
    /// test runs for all three.
    enum Feed: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case teams, players, standings
        var testDescription: String { rawValue }
        var cacheKey: String {
            switch self {
            case .teams: "teams/serie-a"
            case .players: "players/emelec"
            case .standings: "standings/serie-a"
            }
        }
        var path: String {
            switch self {
            case .teams: "/leagues/serie-a/teams.json"
            case .players: "/teams/emelec/players.json"
            case .standings: "/leagues/serie-a/standings.json"
            }
        }

        func load(_ engine: LigasEngine, policy: LoadPolicy = .default) async throws -> Loaded<[String]> {
            switch self {
            case .teams: try await engine.teams(league: "serie-a", policy: policy).map { $0.map(\.id) }
            case .players: try await engine.players(team: "emelec", policy: policy).map { $0.map(\.id) }
            case .standings: try await engine.standings(league: "serie-a", policy: policy).map { $0.map(\.team.id) }
            }
        }

        func cachedIDs(_ environment: AcceptanceEnvironment) throws -> [String]? {
            switch self {
            case .teams: try environment.cachedValue([Team].self, cacheKey)?.map(\.id)
            case .players: try environment.cachedValue([Player].self, cacheKey)?.map(\.id)
            case .standings: try environment.cachedValue([Standing].self, cacheKey)?.map(\.team.id)
            }
        }
    }

    func fill(_ feed: Feed, to state: CacheState, in environment: AcceptanceEnvironment) async throws {
        guard state != .empty else { return }
        _ = try await feed.load(environment.engine(online: true))
        state.age(environment)
    }

    @Test("Online: delivers from the cache when it is fresh, else from the remote, saving it", arguments: Feed.allCases, CacheState.allCases)
    func online(feed: Feed, state: CacheState) async throws {
        try await AcceptanceEnvironment.run { environment in
            try await fill(feed, to: state, in: environment)
            let requestsBefore = environment.requestPaths.count

            let loaded = try await feed.load(environment.engine(online: true))

            #expect(loaded.value.count == (feed == .players ? 23 : 16))
            #expect(try feed.cachedIDs(environment) == loaded.value)
            if state == .fresh {
                #expect(loaded.origin == .cache)
                #expect(environment.requestPaths.count == requestsBefore)
            } else {
                #expect(loaded.origin == .remote)
                #expect(Array(environment.requestPaths.dropFirst(requestsBefore)) == [feed.path])
                #expect(try environment.cached()[feed.cacheKey]?.timestamp == environment.clock.now)
            }
        }
    }

    @Test("Offline: delivers a fresh cache, else the remote's connectivity error", arguments: Feed.allCases, CacheState.allCases)
    func offline(feed: Feed, state: CacheState) async throws {
        try await AcceptanceEnvironment.run { environment in
            try await fill(feed, to: state, in: environment)
            let cachedBefore = try environment.cached()[feed.cacheKey]

            let engine = try environment.engine(online: false)
            if state == .fresh {
                let loaded = try await feed.load(engine)
                #expect(loaded.origin == .cache)
                #expect(try feed.cachedIDs(environment) == loaded.value)
            } else {
                await #expect { try await feed.load(engine) } throws: { error in
                    if case LigasError.connectivity = error { return true } else { return false }
                }
            }
            #expect(try environment.cached()[feed.cacheKey] == cachedBefore)
        }
    }

    @Test("Online, cache failing (an entry that no longer decodes): delivers the remote's data and replaces the entry", arguments: Feed.allCases)
    func failingCache(feed: Feed) async throws {
        try await AcceptanceEnvironment.run { environment in
            try SQLiteCacheStore(fileURL: environment.cacheURL)
                .replace(feed.cacheKey, with: CachedFeed(payload: Data("garbage".utf8), timestamp: environment.clock.now))

            let loaded = try await feed.load(environment.engine(online: true))

            #expect(loaded.origin == .remote)
            #expect(try feed.cachedIDs(environment) == loaded.value)
        }
    }

    @Test("Online, expired cache, remote answering invalid data: the remote's invalid-data error", arguments: Feed.allCases)
    func invalidRemoteData(feed: Feed) async throws {
        try await AcceptanceEnvironment.run(serving: { _ in .ok(Data("{\"oops\":1}".utf8), contentType: "application/json") }) { environment in
            await #expect { try await feed.load(environment.engine(online: true)) } throws: { error in
                if case LigasError.invalidData = error { return true } else { return false }
            }
            let cached = try environment.cached()
            #expect(cached[feed.cacheKey] == nil)
        }
    }

    @Test("Refresh goes to the remote even with a fresh cache, and updates the cache", arguments: Feed.allCases)
    func refresh(feed: Feed) async throws {
        try await AcceptanceEnvironment.run { environment in
            try await fill(feed, to: .fresh, in: environment)

            let loaded = try await feed.load(environment.engine(online: true), policy: .refresh)

            #expect(loaded.origin == .remote)
            #expect(environment.requestPaths == [feed.path, feed.path])
            #expect(try environment.cached()[feed.cacheKey]?.timestamp == environment.clock.now)
        }
    }

    @Test("Offline policy never touches the network, even when the remote is up", arguments: Feed.allCases)
    func offlinePolicy(feed: Feed) async throws {
        try await AcceptanceEnvironment.run { environment in
            await #expect(throws: LigasError.noCache) { try await feed.load(environment.engine(online: true), policy: .offline) }
            #expect(environment.requestPaths.isEmpty)
        }
    }

    @Test("A page of the feed table overwritten (the file still opens): offline is noCache saying the cache could not be read, the file is recreated, and the remote's answer is cached again", arguments: Feed.allCases)
    func corruptFeedPage(feed: Feed) async throws {
        try await AcceptanceEnvironment.run { environment in
            try await fill(feed, to: .fresh, in: environment)
            try BadCacheFiles.overwriteRootPage(of: "feed", in: environment.cacheURL)
            let engine = try environment.engine(online: true)

            await #expect { try await feed.load(engine, policy: .offline) } throws: { error in
                guard case CacheError.unreadable(let why) = error else { return false }
                return why.contains("corrupt")
            }
            #expect(try BadCacheFiles.quickCheck(environment.cacheURL) == "ok")
            let loaded = try await feed.load(engine)

            #expect(loaded.origin == .remote)
            #expect(environment.requestPaths.last == feed.path)
            #expect(try feed.cachedIDs(environment) == loaded.value)
            #expect(try await feed.load(environment.engine(online: false), policy: .offline).origin == .cache)
        }
    }

    @Test("A cache save error (full disk) is logged and does not fail the load", arguments: Feed.allCases)
    func saveErrorIsLogged(feed: Feed) async throws {
        try await AcceptanceEnvironment.run { environment in
            let engine = try environment.engine(online: true, maxFileBytes: 128 * 1024)
            try environment.fillCacheFile(maxFileBytes: 128 * 1024)

            let loaded = try await feed.load(engine)

            #expect(loaded.origin == .remote)
            #expect(loaded.value.count == (feed == .players ? 23 : 16))
            #expect(environment.logs.messages.contains("cache save failed; delivering anyway"))
            #expect(try feed.cachedIDs(environment) == nil)
        }
    }

    @Test("100 concurrent cold loads of the same teams make one remote request")
    func singleFlight() async throws {
        try await AcceptanceEnvironment.run { environment in
            let engine = try environment.engine(online: true)

            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 { group.addTask { try await engine.teams(league: "serie-a").value.count } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            #expect(counts == Array(repeating: 16, count: 100))
            #expect(environment.requestPaths == ["/leagues/serie-a/teams.json"])
        }
    }
}

@Suite("Acceptance: a seed-football-api source")
struct SeedSourceAcceptanceTests {
    @Test("With a seed source configured, leagues list its league, whose teams and matches come from the seed API")
    func seedLeagueIsServed() async throws {
        let seed = try await LoopbackHTTPServer.start(SeedFootballAPI.route)
        let outcome = await asyncResult {
            try await AcceptanceEnvironment.run { environment in
                let engine = try environment.engine(online: true, seed: seed.baseURL)

                let league = try #require(await engine.leagues().value.first { $0.id == "seed" })
                let teams = try await engine.teams(league: "seed")
                let matches = try await engine.matches(league: "seed", team: "red-dragons")

                #expect(league.dataSource == .seedFootballAPI)
                #expect(teams.value.map(\.id) == ["red-dragons", "cool-eagles"])
                #expect(teams.value.allSatisfy { $0.dataSource == .seedFootballAPI })
                #expect(matches.origin == .remote)
                #expect(matches.value.previous.count == 1 && matches.value.upcoming.count == 1)
                #expect(seed.requests.map(\.path) == ["/teams", "/teams/matches"])
                #expect(environment.requestPaths.isEmpty)
            }
        }
        try await seed.shutdown()
        try outcome.get()
    }

    @Test("A leagues list cached before the seed source was configured is dropped when the cache is validated")
    func outdatedLeaguesList() async throws {
        try await AcceptanceEnvironment.run { environment in
            _ = try await environment.engine(online: true).leagues()
            let withSeed = try environment.engine(online: true, seed: URL(string: "http://127.0.0.1:9/")!)

            let report = try await withSeed.validateCache()
            let leagues = await withSeed.leagues()

            #expect(report.outdatedLeagues)
            #expect(leagues.value.map(\.id) == ["serie-a", "serie-b", "seed"])
            #expect(try await withSeed.validateCache().outdatedLeagues == false)
        }
    }
}
