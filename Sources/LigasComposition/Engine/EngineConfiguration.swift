import Foundation
import LigasDomain
import LigasRemote

/// Everything the engine's composition needs to know; the daemon fills it from flags,
/// environment and config file.
public struct EngineConfiguration: Sendable {
    /// The configured remotes. The `ligas-rest` one also anchors the bootstrap leagues' logos.
    public var sources: [RemoteSource]
    public var cachePolicy = CachePolicy()
    public var maxFeedBytes = 4 * 1024 * 1024
    public var maxImageBytes = RemoteImageLoader.defaultMaxBytes
    public var imageChunkSize = LocalImageLoader.defaultChunkSize

    public init(sources: [RemoteSource]) {
        self.sources = sources
    }

    var ligasBaseURL: URL {
        sources.first { $0.dataSource == .ligasREST }?.baseURL
            ?? URL(string: "https://ligas.invalid/")!  // no ligas source: logos simply won't load
    }
}
