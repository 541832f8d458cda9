import Foundation
import LigasCacheStore
import LigasComposition
import LigasDomain
import LigasSampleDataLocation
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

    @Test("Remote down: delivers the cached matches while they are fresh, else the connectivity error", arguments: CacheState.allCases)
    func offline(state: CacheState) async throws {
        try await AcceptanceEnvironment.run { environment in
            try await fill(state, in: environment)
            let engine = try environment.engine(online: false)

            if state == .fresh {
                let loaded = try await engine.matches(league: "serie-a")
                #expect(loaded.origin == .cache)
                #expect(try environment.cachedValue(Matches.self, "matches/serie-a") == loaded.value)
                #expect(environment.logs.messages.contains("remote failed; cached matches answered instead"))
            } else {
                await #expect { try await engine.matches(league: "serie-a") } throws: { error in
                    if case LigasError.connectivity = error { return true } else { return false }
                }
                // Nothing cached answered: the log must not say it did.
                #expect(!environment.logs.messages.contains("remote failed; cached matches answered instead"))
            }
        }
    }

    @Test("A remote that answered, with nothing cached: its own error, not 'no cache'", arguments: [404, 500])
    func remoteAnsweredNothingCached(status: Int) async throws {
        try await AcceptanceEnvironment.run(serving: { _ in .status(status) }) { environment in
            await #expect { try await environment.engine(online: true).matches(league: "serie-a") } throws: { error in
                switch (status, error) {
                case (404, LigasError.notFound), (500, LigasError.invalidData): true
                default: false
                }
            }
        }
    }

    @Test("An unknown league is 'not found', as for teams")
    func unknownLeague() async throws {
        try await AcceptanceEnvironment.run { environment in
            await #expect { try await environment.engine(online: true).matches(league: "no-such-league") } throws: { error in
                if case LigasError.notFound = error { return true } else { return false }
            }
        }
    }

    @Test("A team the league does not have is 'not found', not an empty list")
    func unknownTeam() async throws {
        try await AcceptanceEnvironment.run { environment in
            await #expect(throws: LigasError.notFound("no team 'no-such-team' in league 'serie-a'")) {
                try await environment.engine(online: true).matches(league: "serie-a", team: "no-such-team")
            }
        }
    }

    @Test("A slow remote: once the budget is spent a fresh cache answers, and the remote's late answer still updates the cache")
    func slowRemoteFreshCache() async throws {
        let gate = Gate()
        let stalling = Shared(false)
        let sample = BundledSampleData.baseURL
        try await AcceptanceEnvironment.run(serving: { _ in
            stalling.value ? .gated(gate, then: .file(root: sample)) : .file(root: sample)
        }) { environment in
            _ = try await environment.engine(online: true).matches(league: "serie-a")
            environment.clock.advance(by: .sevenDays / 2)
            stalling.withLock { $0 = true }
            let engine = try environment.engine(online: true, remoteFirstBudget: .milliseconds(50))

            let loaded = try await engine.matches(league: "serie-a")

            #expect(loaded.origin == .cache)
            gate.open()
            try await poll("the late answer to be cached") {
                try environment.cached()["matches/serie-a"]?.timestamp == environment.clock.now ? true : nil
            }
        }
    }

    @Test("A slow remote with nothing cached: the caller waits for the remote's answer, not for an error")
    func slowRemoteNothingCached() async throws {
        let gate = Gate()
        let sample = BundledSampleData.baseURL
        try await AcceptanceEnvironment.run(serving: { _ in .gated(gate, then: .file(root: sample)) }) { environment in
            let engine = try environment.engine(online: true, remoteFirstBudget: .milliseconds(50))

            async let loaded = engine.matches(league: "serie-a")
            defer { gate.open() }  // whatever happens below, the gated answer ends (no hang)
            try await poll("the matches request") { environment.requestPaths.contains("/leagues/serie-a/matches.json") ? true : nil }
            gate.open()

            // The answer is the remote's (it may be read back from the cache it was just saved to).
            let matches = try await loaded.value
            #expect(matches.previous.count == 32 && matches.upcoming.count == 16)
            #expect(environment.requestPaths == ["/leagues/serie-a/matches.json"])
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

            let report = try await environment.engine(online: true).validateCache()

            #expect(report.expiredFeeds == ["teams/serie-a"])
            #expect(report.undecodableFeeds == ["players/emelec"])
            // The leagues entry was saved again by the serie-b load (its data source comes from it).
            #expect(try environment.cached().keys.sorted() == ["leagues", "teams/serie-b"])
        }
    }
}
