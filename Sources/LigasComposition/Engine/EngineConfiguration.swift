import Foundation
import LigasDomain
import LigasRemote

/// Everything the engine's composition needs to know; the daemon fills it from flags,
/// environment and config file.
public struct EngineConfiguration: Sendable {
    /// The configured remotes. The `ligas-rest` one also anchors the bootstrap leagues' logos.
    public var sources: [RemoteSource]
    public var cachePolicy = CachePolicy()
    public var maxImageBytes = RemoteImageLoader.defaultMaxBytes
    public var imageChunkSize = LocalImageLoader.defaultChunkSize
    /// How long a remote-first load (matches) waits for the remote before a fresh cache answers
    /// instead; the fetch then finishes in the background. With nothing cached it waits on.
    public var remoteFirstBudget = Self.defaultRemoteFirstBudget
    public static let defaultRemoteFirstBudget: Duration = .milliseconds(1500)

    public init(sources: [RemoteSource]) {
        self.sources = sources
    }

    /// The leagues the daemon knows without asking anyone: LigaPro Serie A and B from the
    /// `ligas-rest` source, and the one league of a `seed-football-api` source when configured.
    var bootstrapLeagues: [League] {
        sources.flatMap { source -> [League] in
            switch source.dataSource {
            case .ligasREST: EcuadorianLeagues.bootstrap(ligasBaseURL: source.baseURL)
            case .seedFootballAPI: [.seed(baseURL: source.baseURL)]
            default: []
            }
        }
    }
}
