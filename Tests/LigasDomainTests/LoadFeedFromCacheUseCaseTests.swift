import Foundation
import LigasDomain
import LigasTestSupport
import Testing

@Suite("Load feed from cache")
struct LoadFeedFromCacheUseCaseTests {
    let store = FeedStoreSpy()
    let clock = TestClock()

    var sut: LocalFeedLoader<String, [Team]> {
        LocalFeedLoader(store: store, feedKey: { .teams(league: $0) }, currentDate: clock.currentDate)
    }

    func save(_ teams: [Team], age: TimeInterval) throws {
        store.stub("teams/serie-a", CachedFeed(payload: try JSONEncoder().encode(teams), timestamp: clock.now.addingTimeInterval(-age)))
    }

    @Test("Delivers cached teams when the cache is less than seven days old")
    func deliversFreshCache() async throws {
        let teams = Fixtures.teams("emelec", "aucas")
        try save(teams, age: .sevenDays - .oneSecond)

        let loaded = try await sut.load("serie-a")

        #expect(loaded == Loaded(teams, from: .cache))
    }

    @Test("Delivers no teams when the cache is exactly seven days old")
    func expiresOnTheSeventhDay() async throws {
        try save(Fixtures.teams("emelec"), age: .sevenDays)

        await #expect(throws: LigasError.noCache) { try await sut.load("serie-a") }
    }

    @Test("Delivers no teams when the cache is more than seven days old")
    func expiredCache() async throws {
        try save(Fixtures.teams("emelec"), age: .sevenDays + .oneSecond)

        await #expect(throws: LigasError.noCache) { try await sut.load("serie-a") }
    }

    @Test("Delivers no teams when the cache is empty")
    func emptyCache() async throws {
        await #expect(throws: LigasError.noCache) { try await sut.load("serie-a") }
    }

    @Test("Delivers the store's error when retrieval fails")
    func retrievalError() async throws {
        store.failRetrieval(with: Fixtures.AnyError("disk"))

        await #expect(throws: Fixtures.AnyError("disk")) { try await sut.load("serie-a") }
    }

    @Test("Delivers an undecodable-entry error when the cached bytes are not teams")
    func undecodableEntry() async throws {
        store.stub("teams/serie-a", CachedFeed(payload: Data("not json".utf8), timestamp: clock.now))

        await #expect(throws: CacheError.undecodable(key: "teams/serie-a")) { try await sut.load("serie-a") }
    }

    @Test("Has no side effects on the store: expired entries are left for cache validation")
    func noSideEffects() async throws {
        try save(Fixtures.teams("emelec"), age: .sevenDays + .oneSecond)
        _ = try? await sut.load("serie-a")

        #expect(store.messages == [.retrieve("teams/serie-a")])
    }

    @Test("A configurable max age replaces the seven days")
    func configurableMaxAge() async throws {
        let sut = LocalFeedLoader<String, [Team]>(
            store: store, feedKey: { .teams(league: $0) }, currentDate: clock.currentDate,
            policy: CachePolicy(maxAge: 60))
        try save(Fixtures.teams("emelec"), age: 59)
        #expect(try await sut.load("serie-a").value == Fixtures.teams("emelec"))

        clock.advance(by: 1)
        await #expect(throws: LigasError.noCache) { try await sut.load("serie-a") }
    }
}

@Suite("Cache feed")
struct CacheFeedUseCaseTests {
    let store = FeedStoreSpy()
    let clock = TestClock()

    var sut: LocalFeedLoader<String, [Player]> {
        LocalFeedLoader(store: store, feedKey: { .players(team: $0) }, currentDate: clock.currentDate)
    }

    @Test("Saves players under their team's id, stamped with the current date, replacing the old entry")
    func replacesUnderKey() async throws {
        let players = [Fixtures.player("emelec-01"), Fixtures.player("emelec-02", number: 2)]

        try sut.save(players, for: "emelec")

        #expect(store.messages == [.replace("players/emelec")])
        #expect(store.feeds["players/emelec"]?.timestamp == clock.now)
        #expect(try await sut.load("emelec").value == players)
    }

    @Test("Delivers the store's error when the replace fails, and the old entry stays")
    func replaceError() async throws {
        let old = [Fixtures.player("emelec-01")]
        try sut.save(old, for: "emelec")
        store.failReplace(with: Fixtures.AnyError("disk full"))

        #expect(throws: Fixtures.AnyError("disk full")) { try sut.save([Fixtures.player("emelec-09")], for: "emelec") }
        #expect(try await sut.load("emelec").value == old)
    }
}
