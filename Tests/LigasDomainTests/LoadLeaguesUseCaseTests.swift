import Foundation
import LigasDomain
import LigasTestSupport
import Testing

@Suite("Load leagues")
struct LoadLeaguesUseCaseTests {
    let store = FeedStoreSpy()
    let clock = TestClock()
    let bootstrap = EcuadorianLeagues.bootstrap(ligasBaseURL: Fixtures.base)

    var sut: LoadLeaguesUseCase {
        LoadLeaguesUseCase(
            cache: LocalFeedLoader(store: store, feedKey: { _ in .leagues }, currentDate: clock.currentDate),
            bootstrap: bootstrap)
    }

    @Test("The bootstrap list holds LigaPro Serie A and Serie B")
    func bootstrapList() {
        #expect(bootstrap.map(\.name) == ["LigaPro Serie A", "LigaPro Serie B"])
        #expect(bootstrap.allSatisfy { $0.logoURL.absoluteString.hasPrefix(Fixtures.base.absoluteString) })
    }

    @Test("Delivers the bootstrap list and saves it when the cache holds no leagues")
    func emptyCacheSavesBootstrap() async throws {
        let loaded = await sut.load()

        #expect(loaded == Loaded(bootstrap, from: .builtIn))
        #expect(store.messages == [.retrieve("leagues"), .replace("leagues")])
        #expect(try JSONDecoder().decode([League].self, from: #require(store.feeds["leagues"]).payload) == bootstrap)
    }

    @Test("Deletes the cached leagues when saving the bootstrap list fails, and still delivers it")
    func saveFailureDeletesCache() async {
        store.failReplace(with: Fixtures.AnyError())

        let loaded = await sut.load()

        #expect(loaded.value == bootstrap)
        #expect(store.messages == [.retrieve("leagues"), .replace("leagues"), .delete("leagues")])
    }

    @Test("Delivers the cached leagues and does not save again when a cached version exists")
    func cachedVersionIsDelivered() async throws {
        let cached = Array(bootstrap.prefix(1))
        store.stub("leagues", CachedFeed(payload: try JSONEncoder().encode(cached), timestamp: clock.now))

        let loaded = await sut.load()

        #expect(loaded == Loaded(cached, from: .cache))
        #expect(store.messages == [.retrieve("leagues")])
    }

    @Test("Refresh saves the bootstrap list again even when a cached version exists")
    func refreshResaves() async throws {
        store.stub("leagues", CachedFeed(payload: try JSONEncoder().encode(Array(bootstrap.prefix(1))), timestamp: clock.now))

        let loaded = await sut.load(policy: .refresh)

        #expect(loaded == Loaded(bootstrap, from: .builtIn))
        #expect(store.messages == [.replace("leagues")])
    }
}
