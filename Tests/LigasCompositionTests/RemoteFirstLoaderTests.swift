import Foundation
import LigasComposition
import LigasDomain
import LigasTestSupport
import Testing

/// The budget is a gate the test opens, so "the budget is spent" is an event, not a duration.
@Suite("Remote first within a budget")
struct RemoteFirstLoaderTests {
    typealias Stub = LoaderStub<String, [Team]>
    let remoteTeams = Fixtures.teams("emelec")
    let cachedTeams = Fixtures.teams("aucas")

    @Test("The remote answers within the budget: its answer, and the cache is not read")
    func remoteWithinBudget() async throws {
        let cache = Stub(delivering: cachedTeams, from: .cache)
        let sut = RemoteFirstLoader(
            remote: Stub(delivering: remoteTeams, from: .remote), cache: cache, budget: { await Gate().wait() })

        let loaded = try await sut.load("serie-a")

        #expect(loaded == Loaded(remoteTeams, from: .remote))
        #expect(cache.loadedKeys.isEmpty)
    }

    @Test("The budget is spent with a fresh cache: the cache answers, and the fetch still finishes in the background")
    func budgetSpentWithCache() async throws {
        let remote = GatedLoader(value: remoteTeams)
        let finished = Gate()
        let sut = RemoteFirstLoader(
            remote: NotifyingLoader(base: remote, finished: finished),
            cache: Stub(delivering: cachedTeams, from: .cache), budget: {})

        let loaded = try await sut.load("serie-a")

        #expect(loaded == Loaded(cachedTeams, from: .cache))
        try await poll("the fetch to reach the remote") { remote.calls == 1 ? true : nil }
        #expect(!finished.isOpen)
        remote.open()
        await finished.wait()  // hangs (and the suite times out) if the fetch had been cancelled
    }

    @Test("The budget is spent with nothing cached: the caller waits for the remote's answer")
    func budgetSpentWithoutCache() async throws {
        let remote = GatedLoader(value: remoteTeams)
        let budget = Gate()
        let sut = RemoteFirstLoader(remote: remote, cache: Stub(failingWith: LigasError.noCache), budget: { await budget.wait() })

        async let loaded = sut.load("serie-a")
        // Runs before the `async let` is awaited on the way out: if the poll below fails, the
        // fetch (which waits on this gate and not on cancellation) still ends, and the test fails
        // instead of hanging (seen once, with the machine overloaded by a release build).
        defer { remote.open() }
        budget.open()
        try await poll("the remote to be asked") { remote.calls == 1 ? true : nil }
        remote.open()

        #expect(try await loaded == Loaded(remoteTeams, from: .remote))
    }

    @Test("The remote fails within the budget: the cache answers, and the failure is reported")
    func remoteFailsWithCache() async throws {
        let reported = Shared<[String]>([])
        let sut = RemoteFirstLoader(
            remote: Stub(failingWith: LigasError.invalidData("HTTP 500")), cache: Stub(delivering: cachedTeams, from: .cache),
            budget: { await Gate().wait() }, onCacheStoodIn: { key, _ in reported.withLock { $0.append(key) } })

        #expect(try await sut.load("serie-a") == Loaded(cachedTeams, from: .cache))
        #expect(reported.value == ["serie-a"])
    }

    @Test("Both fail: the remote's error names what happened, not 'no cache', and no cache is reported to have stood in")
    func bothFail() async {
        let reported = Shared<[String]>([])
        let sut = RemoteFirstLoader(
            remote: Stub(failingWith: LigasError.notFound("HTTP 404")), cache: Stub(failingWith: LigasError.noCache),
            budget: { await Gate().wait() }, onCacheStoodIn: { key, _ in reported.withLock { $0.append(key) } })

        await #expect(throws: LigasError.notFound("HTTP 404")) { try await sut.load("no-such-league") }
        #expect(reported.value.isEmpty)
    }

    @Test("A caller cancelled while waiting for the remote cancels the fetch")
    func cancelledCallerCancelsFetch() async throws {
        let remote = GatedLoader(value: remoteTeams)
        let sut = RemoteFirstLoader(
            remote: CancellationAwareLoader(base: remote), cache: Stub(failingWith: LigasError.noCache), budget: {})

        let caller = Task { try await sut.load("serie-a") }
        try await poll("the remote to be asked") { remote.calls == 1 ? true : nil }
        caller.cancel()
        remote.open()

        await #expect(throws: CancellationError.self) { try await caller.value }
    }
}

/// Opens `finished` once its base load has returned.
struct NotifyingLoader: Loader {
    let base: GatedLoader
    let finished: Gate

    func load(_ key: String) async throws -> Loaded<[Team]> {
        defer { finished.open() }
        return try await base.load(key)
    }
}
