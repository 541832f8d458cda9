import Foundation
import LigasDomain

/// Where each feed lives on a data source, as paths relative to its base URL.
/// `nil` means the data source does not provide that feed.
public struct EndpointTable: Sendable {
    public var teams: @Sendable (_ leagueID: String) -> String?
    public var players: @Sendable (_ teamID: String) -> String?
    public var matches: @Sendable (_ leagueID: String) -> String?
    /// The header that carries the API key, when one is configured.
    public var apiKeyHeader: String

    /// The feeds an endpoint table lists.
    public enum Feed: Sendable {
        case teams, players, matches
    }

    public func path(of feed: Feed, id: String) -> String? {
        switch feed {
        case .teams: teams(id)
        case .players: players(id)
        case .matches: matches(id)
        }
    }

    public init(
        teams: @escaping @Sendable (String) -> String?,
        players: @escaping @Sendable (String) -> String?,
        matches: @escaping @Sendable (String) -> String?,
        apiKeyHeader: String
    ) {
        self.teams = teams
        self.players = players
        self.matches = matches
        self.apiKeyHeader = apiKeyHeader
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

    public static let all: [RemoteContract] = [.ligasREST, .seedFootballAPI]
}
