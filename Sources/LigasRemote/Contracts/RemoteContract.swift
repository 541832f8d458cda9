import FoundationEssentials
import LigasDomain

/// Where each feed lives on a data source, as paths relative to its base URL (a query string
/// allowed). A feed may take several GETs (FlashLive's matches: results, then fixtures);
/// `nil` means the data source does not provide that feed.
public struct EndpointTable: Sendable {
    /// The feeds an endpoint table lists.
    public enum Feed: String, Sendable, Hashable, CaseIterable {
        case teams, players, matches, standings
    }

    /// What a path is built from: the league's or team's id, and for a league's feeds at a
    /// source that files leagues by season, the league's current season there.
    public struct Target: Sendable, Hashable {
        public let id: String
        public let season: LeagueSeason?

        public init(id: String, season: LeagueSeason? = nil) {
            self.id = id
            self.season = season
        }
    }

    public var paths: @Sendable (Feed, Target) -> [String]?
    /// The header that carries the API key, when one is configured.
    public var apiKeyHeader: String
    /// Headers sent with every request (RapidAPI's `x-rapidapi-host`).
    public var fixedHeaders: [String: String]
    /// Statuses that mean "nothing here yet" for one GET of a feed (FlashLive answers 404 for a
    /// stage without results or fixtures): that part is absent, not an error.
    public var emptyStatuses: [Feed: Set<Int>]
    /// Where the current seasons of the source's leagues are listed, for sources whose league
    /// feeds need one (`Target.season`); nil for the others.
    public var seasons: String?
    /// Teams come out of the standings payload (FlashLive): a league's teams and table cost one
    /// GET together.
    public var teamsFromStandings: Bool

    public init(
        paths: @escaping @Sendable (Feed, Target) -> [String]?,
        apiKeyHeader: String, fixedHeaders: [String: String] = [:], emptyStatuses: [Feed: Set<Int>] = [:],
        seasons: String? = nil, teamsFromStandings: Bool = false
    ) {
        self.paths = paths
        self.apiKeyHeader = apiKeyHeader
        self.fixedHeaders = fixedHeaders
        self.emptyStatuses = emptyStatuses
        self.seasons = seasons
        self.teamsFromStandings = teamsFromStandings
    }

    /// A table of one GET per feed, keyed by id alone.
    public init(
        teams: @escaping @Sendable (String) -> String?,
        players: @escaping @Sendable (String) -> String?,
        matches: @escaping @Sendable (String) -> String?,
        standings: @escaping @Sendable (String) -> String?,
        apiKeyHeader: String
    ) {
        self.init(paths: { feed, target in
            let path = switch feed {
            case .teams: teams(target.id)
            case .players: players(target.id)
            case .matches: matches(target.id)
            case .standings: standings(target.id)
            }
            return path.map { [$0] }
        }, apiKeyHeader: apiKeyHeader)
    }

    /// Whether a league's feed at this source is built from the league's season ids.
    public func needsSeason(_ feed: Feed) -> Bool {
        seasons != nil && feed != .players
    }
}

/// What a mapper needs besides the bytes: relative references resolve against the base URL,
/// and every entity is stamped with the data source it came from.
public struct MappingContext: Sendable, Hashable {
    public let baseURL: URL
    public let dataSource: DataSource

    public init(baseURL: URL, dataSource: DataSource) {
        self.baseURL = baseURL
        self.dataSource = dataSource
    }
}

/// Turns one data source's payloads into domain entities. Throws `LigasError.invalidData`.
public protocol PayloadMapper: Sendable {
    func teams(from data: Data, in context: MappingContext) throws -> [Team]
    func players(from data: Data, in context: MappingContext) throws -> [Player]
    func matches(from data: Data, in context: MappingContext) throws -> Matches
    func standings(from data: Data, in context: MappingContext) throws -> [Standing]
    /// A feed of several GETs (in the endpoint table's order); an absent part answered one of the
    /// table's `emptyStatuses`. By default a feed is one GET.
    func matches(fromParts parts: [Data?], in context: MappingContext) throws -> Matches
    /// The current season of each league this source knows, from the table's `seasons` listing.
    func seasons(from data: Data, in context: MappingContext) throws -> [LeagueSeason]
}

extension PayloadMapper {
    public func matches(fromParts parts: [Data?], in context: MappingContext) throws -> Matches {
        guard parts.count == 1, let data = parts[0] else { throw LigasError.invalidData("expected one matches payload") }
        return try matches(from: data, in: context)
    }

    public func seasons(from data: Data, in context: MappingContext) throws -> [LeagueSeason] {
        throw LigasError.notFound("\(context.dataSource) lists no seasons")
    }
}

/// A data source's whole contract. Adding a provider = one `EndpointTable` + one `PayloadMapper`.
public struct RemoteContract: Sendable {
    public let dataSource: DataSource
    public let endpoints: EndpointTable
    public let mapper: any PayloadMapper

    public init(dataSource: DataSource, endpoints: EndpointTable, mapper: any PayloadMapper) {
        self.dataSource = dataSource
        self.endpoints = endpoints
        self.mapper = mapper
    }

    public static let all: [RemoteContract] = [.ligasREST, .seedFootballAPI, .flashLive, .transfermarkt]
}
