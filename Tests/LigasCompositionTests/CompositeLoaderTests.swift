import Foundation
@testable import LigasComposition
import LigasDomain
import LigasTestSupport
import Logging
import Testing

@Suite("Fallback, caching and policy routing")
struct CompositeLoaderTests {
    typealias Stub = LoaderStub<String, [Team]>
    let teams = Fixtures.teams("emelec")
    let logger = Logger(label: "test")

    @Test("Fallback delivers the primary's result when it succeeds, without asking the fallback")
    func primarySucceeds() async throws {
        let primary = Stub(delivering: teams, from: .cache), fallback = Stub(failingWith: Fixtures.AnyError())

        let loaded = try await FallbackLoader(primary: primary, fallback: fallback).load("serie-a")

        #expect(loaded == Loaded(teams, from: .cache))
        #expect(fallback.loadedKeys.isEmpty)
    }

    @Test("Fallback delivers the fallback's result when the primary fails")
    func primaryFails() async throws {
        let primary = Stub(failingWith: LigasError.noCache), fallback = Stub(delivering: teams, from: .remote)

        let loaded = try await FallbackLoader(primary: primary, fallback: fallback).load("serie-a")

        #expect(loaded == Loaded(teams, from: .remote))
        #expect(fallback.loadedKeys == ["serie-a"])
    }

    @Test("Fallback delivers the fallback's error when both fail")
    func bothFail() async {
        let sut = FallbackLoader(primary: Stub(failingWith: LigasError.noCache), fallback: Stub(failingWith: LigasError.connectivity("down")))
        await #expect(throws: LigasError.connectivity("down")) { try await sut.load("serie-a") }
    }

    @Test("Caching saves what the remote delivered, under its key")
    func cachingSaves() async throws {
        let store = FeedStoreSpy(), clock = TestClock()
        let cache = LocalFeedLoader<String, [Team]>(store: store, feedKey: { .teams(league: $0) }, currentDate: clock.currentDate)

        let loaded = try await CachingLoader(decoratee: Stub(delivering: teams, from: .remote), cache: cache, logger: logger).load("serie-a")

        #expect(loaded == Loaded(teams, from: .remote))
        #expect(store.messages == [.replace("teams/serie-a")])
    }

    @Test("Caching logs a save error and still delivers the value")
    func cachingSaveErrorDoesNotFailTheLoad() async throws {
        let store = FeedStoreSpy(), clock = TestClock()
        store.failReplace(with: Fixtures.AnyError("disk full"))
        let cache = LocalFeedLoader<String, [Team]>(store: store, feedKey: { .teams(league: $0) }, currentDate: clock.currentDate)
        let logs = LogRecorder()

        let loaded = try await CachingLoader(decoratee: Stub(delivering: teams, from: .remote), cache: cache, logger: logs.logger).load("serie-a")

        #expect(loaded.value == teams)
        #expect(logs.messages == ["cache save failed; delivering anyway"])
    }

    @Test("Caching saves nothing when the remote fails")
    func cachingNothingOnFailure() async {
        let store = FeedStoreSpy(), clock = TestClock()
        let cache = LocalFeedLoader<String, [Team]>(store: store, feedKey: { .teams(league: $0) }, currentDate: clock.currentDate)

        await #expect(throws: LigasError.invalidData("x")) {
            try await CachingLoader(decoratee: Stub(failingWith: LigasError.invalidData("x")), cache: cache, logger: logger).load("serie-a")
        }
        #expect(store.messages.isEmpty)
    }

    @Test("Cache first: offline never asks the remote; refresh never asks the cache")
    func cacheFirstPolicies() async throws {
        let cache = Stub(delivering: teams, from: .cache), remote = Stub(delivering: teams, from: .remote)
        let sut = PolicyRoutingLoader.cacheFirst(cache: cache, remote: remote)

        #expect(try await sut.load("a", policy: .offline).origin == .cache)
        #expect(remote.loadedKeys.isEmpty)
        #expect(try await sut.load("b", policy: .refresh).origin == .remote)
        #expect(cache.loadedKeys == ["a"])
    }

    @Test("Cache first, offline with nothing cached: no-cache error, and the remote is untouched")
    func offlineNothingCached() async {
        let remote = Stub(delivering: teams, from: .remote)
        let sut = PolicyRoutingLoader.cacheFirst(cache: Stub(failingWith: LigasError.noCache), remote: remote)

        await #expect(throws: LigasError.noCache) { try await sut.load("a", policy: .offline) }
        #expect(remote.loadedKeys.isEmpty)
    }

    @Test("Offline with a failing cache (a corrupt file), cache first or remote first: no-cache, saying why, and the remote is untouched; the default policy asks the remote")
    func offlineFailingCache() async throws {
        let failure = Fixtures.AnyError("corrupt(path: cache.sqlite)")
        let remote = Stub(delivering: teams, from: .remote)
        for sut in [
            PolicyRoutingLoader.cacheFirst(cache: Stub(failingWith: failure), remote: remote),
            PolicyRoutingLoader.remoteFirst(remote: remote, cache: Stub(failingWith: failure), budget: {}),
        ] {
            await #expect(throws: CacheError.unreadable(reason: failure.description)) { try await sut.load("a", policy: .offline) }
            #expect(remote.loadedKeys.isEmpty)
        }
        #expect(try await PolicyRoutingLoader.cacheFirst(cache: Stub(failingWith: failure), remote: remote).load("a", policy: .default).origin == .remote)
    }

    @Test("Remote first: a remote that answered and failed, with nothing cached, is the remote's own error", arguments: [
        LigasError.notFound("HTTP 404"), LigasError.invalidData("HTTP 500"), LigasError.connectivity("refused"),
    ])
    func remoteFirstRemoteErrorNoCache(remoteError: LigasError) async {
        let sut = PolicyRoutingLoader<String, [Team]>.remoteFirst(
            remote: Stub(failingWith: remoteError), cache: Stub(failingWith: LigasError.noCache), budget: {})

        await #expect(throws: remoteError) { try await sut.load("a", policy: .default) }
    }

    @Test("Remote first, refresh: the remote's error is reported, the cache is not used")
    func remoteFirstRefresh() async {
        let cache = Stub(delivering: teams, from: .cache)
        let sut = PolicyRoutingLoader<String, [Team]>.remoteFirst(
            remote: Stub(failingWith: LigasError.connectivity("x")), cache: cache, budget: {})

        await #expect(throws: LigasError.connectivity("x")) { try await sut.load("a", policy: .refresh) }
        #expect(cache.loadedKeys.isEmpty)
    }
}

@Suite("Single flight")
struct SingleFlightLoaderTests {
    @Test("100 concurrent loads of the same key share one underlying load")
    func hundredCallersOneLoad() async throws {
        let gate = GatedLoader(value: Fixtures.teams("emelec"))
        let sut = SingleFlightLoader(decoratee: ByName(base: gate))
        let key = CountingKey("serie-a")

        let results = try await withThrowingTaskGroup(of: [Team].self) { group in
            for _ in 0..<100 { group.addTask { try await sut.load(key).value } }
            try await poll("99 callers joining the first one's flight") { key.comparisons >= 99 ? () : nil }
            gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results.count == 100)
        #expect(results.allSatisfy { $0 == Fixtures.teams("emelec") })
        #expect(gate.calls == 1)
    }

    @Test("Different keys do not share a load; a finished flight is not reused")
    func differentKeysAndLaterLoads() async throws {
        let gate = GatedLoader(value: Fixtures.teams("emelec"))
        gate.open()
        let sut = SingleFlightLoader(decoratee: gate)

        _ = try await sut.load("serie-a")
        _ = try await sut.load("serie-b")
        _ = try await sut.load("serie-a")

        #expect(gate.calls == 3)
    }

    @Test("When the leading caller is cancelled, the callers waiting on it still get the value")
    func leaderCancelled() async throws {
        let gate = GatedLoader(value: Fixtures.teams("emelec"))
        let sut = SingleFlightLoader(decoratee: ByName(base: CancellationAwareLoader(base: gate)))
        let key = CountingKey("serie-a")

        let leader = Task { try await sut.load(key).value }
        try await poll("the leader's load") { gate.calls >= 1 ? () : nil }
        let follower = Task { try await sut.load(key).value }
        try await poll("the follower joining the flight") { key.comparisons >= 1 ? () : nil }
        leader.cancel()
        gate.open()

        await #expect(throws: CancellationError.self) { try await leader.value }
        #expect(try await follower.value == Fixtures.teams("emelec"))
        #expect(gate.calls == 2)
    }

    @Test("Loads that arrive while a cache-first flight is on the remote share it, cache check included")
    func flightCoversTheCacheCheck() async throws {
        let cache = LoaderStub<CountingKey, [Team]>(failingWith: LigasError.notFound("empty cache"))
        let remote = GatedLoader(value: Fixtures.teams("emelec"))
        // What `PolicyRoutingLoader.sharingFlights()` builds for the default policy.
        let sut = SingleFlightLoader(decoratee: FallbackLoader(primary: cache, fallback: ByName(base: remote)))
        let key = CountingKey("serie-a")

        let loads = (0..<10).map { _ in Task { try await sut.load(key).value } }
        try await poll("9 callers joining the first one's flight") { key.comparisons >= 9 ? () : nil }
        remote.open()
        for load in loads { #expect(try await load.value == Fixtures.teams("emelec")) }

        #expect(remote.calls == 1)
        #expect(cache.loadedKeys.map(\.name) == ["serie-a"])
    }

    @Test("A failed flight delivers its error to every caller")
    func sharedFailure() async {
        let sut = SingleFlightLoader(decoratee: LoaderStub<String, [Team]>(failingWith: LigasError.connectivity("down")))
        await #expect(throws: LigasError.connectivity("down")) { try await sut.load("a") }
    }
}

/// A key that counts how often it is compared for equality: the spy through which tests see
/// callers join a flight. `SingleFlightLoader` compares a caller's key with the key in flight only
/// when it finds that flight, in the critical section where the caller joins it (the first caller
/// finds none, and only the leader's removal of its finished flight compares again): so once the
/// count is n, n callers have joined the flight while it was still on.
struct CountingKey: Hashable, Sendable {
    let name: String
    private let counter = Counter()

    init(_ name: String) { self.name = name }

    var comparisons: Int { counter.total }

    static func == (lhs: CountingKey, rhs: CountingKey) -> Bool {
        lhs.counter.add(1)
        return lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// Loads a `CountingKey` by its name.
struct ByName<Base: Loader>: Loader where Base.Key == String {
    let base: Base

    func load(_ key: CountingKey) async throws -> Loaded<Base.Value> {
        try await base.load(key.name)
    }
}

/// Throws `CancellationError` after its base load if the calling task was cancelled meanwhile,
/// as a real (URLSession/AsyncHTTPClient) load would.
struct CancellationAwareLoader: Loader {
    let base: GatedLoader

    func load(_ key: String) async throws -> Loaded<[Team]> {
        let loaded = try await base.load(key)
        try Task.checkCancellation()
        return loaded
    }
}

/// Holds every load until the test opens the gate, counting how many loads reached it.
final class GatedLoader: Loader, Sendable {
    private let gate = Gate()
    private let arrivals = Counter()
    let value: [Team]

    init(value: [Team]) { self.value = value }

    var calls: Int { arrivals.total }

    func open() { gate.open() }

    func load(_ key: String) async throws -> Loaded<[Team]> {
        arrivals.add(1)
        await gate.wait()
        return Loaded(value, from: .remote)
    }
}
