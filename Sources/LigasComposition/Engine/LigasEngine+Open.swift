import FoundationEssentials
import LigasCacheStore
import LigasRemote
import Logging

/// The engine over its production adapters: the SQLite cache file (opened the daemon's way, see
/// `CacheStoreOpening`) and the HTTP client (`http(s)://` through AsyncHTTPClient, made on the
/// first such request; `file://` from disk). Whoever opens one shuts it down: the HTTP client must
/// be shut down before it goes away.
public struct OpenedEngine: Sendable {
    public let engine: LigasEngine
    private let http: LazyHTTPClient
    private let store: SQLiteCacheStore

    /// Opens the cache and composes the engine; throws only when no cache at all can be opened
    /// (not even in memory), and then leaves nothing to shut down.
    public static func open(
        configuration: EngineConfiguration, cacheFile: URL, imageCacheBytes: Int, logger: Logger,
        remoteFallbackMetadata: Logger.Metadata = [:], quotaMetadata: Logger.Metadata = [:]
    ) throws -> OpenedEngine {
        let store = try CacheStoreOpening.open(fileURL: cacheFile, imageCapacityBytes: imageCacheBytes, logger: logger)
        let http = LazyHTTPClient()
        let engine = LigasEngine.compose(
            configuration: configuration, feedStore: store, imageStore: store, requestCounts: store,
            httpClient: SchemeRoutingHTTPClient(http: http), logger: logger,
            remoteFallbackMetadata: remoteFallbackMetadata, quotaMetadata: quotaMetadata)
        return OpenedEngine(engine: engine, http: http, store: store)
    }

    /// Frees what the cache holds in memory only to be quicker next time (SQLite's page caches).
    public func releaseCacheMemory() {
        store.releaseMemory()
    }

    /// Shuts the HTTP client down; the engine must not be used afterwards.
    public func shutdown() async {
        try? await http.shutdown()
    }
}
