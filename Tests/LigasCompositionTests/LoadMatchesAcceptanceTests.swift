import Foundation
import LigasCacheStore
import LigasComposition
import LigasDomain
import LigasTestSupport
import Testing

@Suite("Acceptance: matches (remote first)")
struct RemoteFirstAcceptanceTests {
    func fill(_ state: CacheState, in environment: AcceptanceEnvironment) async throws {
        guard state != .empty else { return }
        _ = try await environment.engine(online: true).matches(league: "serie-a")
        state.age(environment)
    }

    @Test("Online: always delivers the remote's matches and replaces the cached ones", arguments: CacheState.allCases)
    func online(state: CacheState) async throws {
        try await AcceptanceEnvironment.run { environment in
            try await fill(state, in: environment)

            let loaded = try await environment.engine(online: true).matches(league: "serie-a")

            #expect(loaded.origin == .remote)
            #expect(loaded.value.previous.count == 32)
            #expect(loaded.value.upcoming.count == 16)
            #expect(try environment.cachedValue(Matches.self, "matches/serie-a") == loaded.value)
            #expect(try environment.cached()["matches/serie-a"]?.timestamp == environment.clock.now)
            #expect(environment.requestPaths.last == "/leagues/serie-a/matches.json")
        }
    }

    @Test("Offline: delivers the cached matches while they are fresh, else 'no connectivity and no cache'", arguments: CacheState.allCases)
    func offline(state: CacheState) async throws {
        try await AcceptanceEnvironment.run { environment in
            try await fill(state, in: environment)
            let engine = try environment.engine(online: false)

            if state == .fresh {
                let loaded = try await engine.matches(league: "serie-a")
                #expect(loaded.origin == .cache)
                #expect(try environment.cachedValue(Matches.self, "matches/serie-a") == loaded.value)
                #expect(environment.logs.messages.contains("remote failed; falling back to cached matches"))
            } else {
                await #expect { try await engine.matches(league: "serie-a") } throws: { error in
                    if case LigasError.noConnectivityAndNoCache = error { return true } else { return false }
                }
            }
        }
    }

    @Test("A team filter, by id or by name, keeps only that team's matches")
    func teamFilter() async throws {
        try await AcceptanceEnvironment.run { environment in
            let engine = try environment.engine(online: true)
            _ = try await engine.teams(league: "serie-a")

            let byID = try await engine.matches(league: "serie-a", team: "emelec").value
            let byName = try await engine.matches(league: "serie-a", team: "Emelec").value

            #expect(byID == byName)
            #expect(byID.previous.count == 4)
            #expect(byID.upcoming.count == 2)
            #expect(byID.previous.allSatisfy { $0.match.involves(team: "Emelec") })
        }
    }
}

@Suite("Acceptance: leagues and cache validation")
struct LeaguesAndValidationAcceptanceTests {
    @Test("Leagues: the bootstrap list on an empty cache, saved; the cached list afterwards, offline too")
    func leagues() async throws {
        try await AcceptanceEnvironment.run { environment in
            let first = try await environment.engine(online: true).leagues()
            let second = try await environment.engine(online: false).leagues()

            #expect(first.origin == .builtIn)
            #expect(first.value.map(\.id) == ["serie-a", "serie-b"])
            #expect(second == Loaded(first.value, from: .cache))
            #expect(environment.requestPaths.isEmpty)
        }
    }

    @Test("Validate cache at start deletes expired and undecodable entries from the real file, keeping the rest")
    func validateCache() async throws {
        try await AcceptanceEnvironment.run { environment in
            let engine = try environment.engine(online: true)
            _ = try await engine.teams(league: "serie-a")
            environment.clock.advance(by: .sevenDays)
            _ = try await engine.teams(league: "serie-b")
            try SQLiteCacheStore(fileURL: environment.cacheURL)
                .replace("players/emelec", with: CachedFeed(payload: Data("{not json".utf8), timestamp: environment.clock.now))

            let report = try environment.engine(online: false).validateCache()

            #expect(report.expiredFeeds == ["teams/serie-a"])
            #expect(report.undecodableFeeds == ["players/emelec"])
            // The leagues entry was saved again by the serie-b load (its data source comes from it).
            #expect(try environment.cached().keys.sorted() == ["leagues", "teams/serie-b"])
        }
    }
}
