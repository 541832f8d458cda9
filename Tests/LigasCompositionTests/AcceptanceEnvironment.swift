import Foundation
import LigasCacheStore
import LigasComposition
import LigasDomain
import LigasRemote
import LigasSampleDataLocation
import LigasTestSupport
import Logging
import NIOCore
import Testing

/// What the acceptance tests run against: the engine composed exactly as the daemon composes it,
/// a real SQLite file, and a real HTTP server on loopback serving the bundled sample data.
/// "Offline" engines point at a port where nothing listens.
final class AcceptanceEnvironment: Sendable {
    let server: LoopbackHTTPServer
    let client: AsyncHTTPClientAdapter
    let directory = TemporaryDirectory()
    let clock = TestClock()
    let logs = LogRecorder()

    var cacheURL: URL { directory.url.appendingPathComponent("cache/cache.sqlite") }
    static let unreachable = URL(string: "http://127.0.0.1:9/")!  // discard port: nothing listens

    private init(server: LoopbackHTTPServer, client: AsyncHTTPClientAdapter) {
        self.server = server
        self.client = client
    }

    static func run(
        serving reply: (@Sendable (String) -> LoopbackHTTPServer.Reply)? = nil,
        _ body: (AcceptanceEnvironment) async throws -> Void
    ) async throws {
        let sample = BundledSampleData.baseURL
        let server = try await LoopbackHTTPServer.start(reply ?? { _ in .file(root: sample) })
        let environment = AcceptanceEnvironment(server: server, client: AsyncHTTPClientAdapter())
        let outcome = await asyncResult { try await body(environment) }
        try await environment.client.shutdown()
        try await server.shutdown()
        try outcome.get()
    }

    /// A new engine over the same cache file, as after a daemon restart. `seed` adds a
    /// `seed-football-api` source at that base URL. The remote-first budget is lifted unless a
    /// test is about it: remote-first tests expect the remote's answer however loaded the machine.
    func engine(
        online: Bool, maxFileBytes: Int? = nil, seed: URL? = nil, remoteFirstBudget: Duration = .seconds(600)
    ) throws -> LigasEngine {
        let store = try SQLiteCacheStore(fileURL: cacheURL, imageCapacityBytes: 1 << 20, maxFileBytes: maxFileBytes)
        let base = online ? server.baseURL : Self.unreachable
        var configuration = EngineConfiguration(sources: [RemoteSource(dataSource: .ligasREST, baseURL: base)])
        if let seed { configuration.sources.append(RemoteSource(dataSource: .seedFootballAPI, baseURL: seed)) }
        configuration.remoteFirstBudget = remoteFirstBudget
        return LigasEngine.compose(
            configuration: configuration,
            feedStore: store, imageStore: store,
            httpClient: SchemeRoutingHTTPClient(http: client),
            currentDate: clock.currentDate, logger: logs.logger)
    }

    /// What the cache file holds now, read through a separate store instance.
    func cached() throws -> [String: CachedFeed] {
        Dictionary(uniqueKeysWithValues: try SQLiteCacheStore(fileURL: cacheURL).allFeeds().map { ($0.key, $0.feed) })
    }

    func cachedValue<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? {
        try cached()[key].map { try JSONDecoder().decode(type, from: $0.payload) }
    }

    func cachedImage(_ url: URL) throws -> CachedImage? {
        try SQLiteCacheStore(fileURL: cacheURL).retrieveImage(for: url)
    }

    /// Fills the cache file with 1 KiB filler entries until it is full (a full disk, in effect).
    func fillCacheFile(maxFileBytes: Int) throws {
        let store = try SQLiteCacheStore(fileURL: cacheURL, maxFileBytes: maxFileBytes)
        for index in 0... {
            do {
                try store.replace("filler/\(index)", with: CachedFeed(payload: Data(repeating: 0, count: 1024), timestamp: clock.now))
            } catch CacheStoreError.diskFull {
                return
            }
        }
    }

    var requestPaths: [String] { server.requests.map(\.path) }
}

/// The cache states the specs cross with online and offline.
enum CacheState: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case empty, fresh, expired

    var testDescription: String { "cache \(rawValue)" }

    /// Ages a cache that was just filled to this state by moving the clock.
    func age(_ environment: AcceptanceEnvironment) {
        switch self {
        case .empty: break
        case .fresh: environment.clock.advance(by: .sevenDays - .oneSecond)
        case .expired: environment.clock.advance(by: .sevenDays)
        }
    }
}

