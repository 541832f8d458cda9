import FoundationEssentials
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

    /// Season ids set in the configuration: they win over what a source lists (FlashLive's).
    public var seasonOverrides: [LeagueSeason] = []
    /// Requests each metered provider (FlashLive, Transfermarkt) may get per calendar month.
    public var monthlyRequestBudget = Self.defaultMonthlyRequestBudget
    public static let defaultMonthlyRequestBudget = 500

    public init(sources: [RemoteSource]) {
        self.sources = sources
    }

    /// The providers whose requests are counted against `monthlyRequestBudget`: the RapidAPI ones.
    var meteredSources: [RemoteSource] {
        sources.filter { [.flashLive, .transfermarkt].contains($0.dataSource) }
    }

    /// Leagues whose teams (and so their squads) come from another source than the league's own:
    /// with both RapidAPI providers, Serie B's clubs and squads come from Transfermarkt (nationality
    /// and shirt numbers) while its table and matches come from FlashLive, which has them.
    var teamSources: [String: DataSource] {
        let configured = Set(sources.map(\.dataSource))
        return configured.isSuperset(of: [.flashLive, .transfermarkt]) ? ["serie-b": .transfermarkt] : [:]
    }

    /// The leagues the daemon knows without asking anyone: LigaPro Serie A and B from the
    /// `ligas-rest` source or from FlashLive, and the one league of a `seed-football-api` source
    /// when configured.
    var bootstrapLeagues: [League] {
        sources.flatMap { source -> [League] in
            switch source.dataSource {
            case .ligasREST: EcuadorianLeagues.bootstrap(ligasBaseURL: source.baseURL)
            case .seedFootballAPI: [.seed(baseURL: source.baseURL)]
            case .flashLive: EcuadorianLeagues.atFlashLive
            default: []
            }
        }
    }
}
