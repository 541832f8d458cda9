import Foundation
import LigasDomain

/// Use case "Load feed from remote": GET, check the status, map the payload.
///
/// - 200: the mapped value, or `invalidData` naming what is wrong with the payload.
/// - 404: `notFound`. Any other status: `invalidData`.
/// - No answer (DNS, refused, timeout, cut off): `connectivity`.
public struct RemoteFeedLoader<Key: Hashable & Sendable, Resource: Sendable>: Loader {
    public static var defaultMaxBodyBytes: Int { 4 * 1024 * 1024 }

    private let client: any HTTPClient
    private let maxBodyBytes: Int
    private let request: @Sendable (Key) async throws -> RemoteRequest
    private let map: @Sendable (Data, RemoteRequest) throws -> Resource

    public init(
        client: any HTTPClient,
        maxBodyBytes: Int = RemoteFeedLoader.defaultMaxBodyBytes,
        request: @escaping @Sendable (Key) async throws -> RemoteRequest,
        map: @escaping @Sendable (Data, RemoteRequest) throws -> Resource
    ) {
        self.client = client
        self.maxBodyBytes = maxBodyBytes
        self.request = request
        self.map = map
    }

    public func load(_ key: Key) async throws -> Loaded<Resource> {
        let request = try await request(key)
        let (head, body) = try await client.getData(request.url, headers: request.headers, maxBodyBytes: maxBodyBytes)
        try RemoteStatus.check(head.status, url: request.url)
        return Loaded(try map(body, request), from: .remote)
    }
}

enum RemoteStatus {
    static func check(_ status: Int, url: URL) throws {
        guard status == 200 else { throw RemoteFailure.status(status, url: url) }
    }
}

extension RemoteFeedLoader where Key == String {
    /// A feed keyed by a league or team id, from whichever data source serves that id:
    /// `endpoint` picks the path from the source's endpoint table, `map` its mapper's method.
    public static func feed(
        _ endpoint: EndpointTable.Feed,
        client: any HTTPClient, catalog: RemoteCatalog,
        dataSourceOf: @escaping @Sendable (String) async -> DataSource,
        map: @escaping @Sendable (any PayloadMapper, Data, MappingContext) throws -> Resource
    ) -> Self {
        Self(client: client, request: { id in
            try catalog.request(endpoint, id: id, from: await dataSourceOf(id))
        }, map: { data, request in
            try map(request.contract.mapper, data, request.context)
        })
    }
}

extension RemoteFeedLoader where Key == String, Resource == [Team] {
    /// Teams of a league.
    public static func teams(
        client: any HTTPClient, catalog: RemoteCatalog, dataSourceOfLeague: @escaping @Sendable (String) async -> DataSource
    ) -> Self {
        feed(.teams, client: client, catalog: catalog, dataSourceOf: dataSourceOfLeague) { try $0.teams(from: $1, in: $2) }
    }
}

extension RemoteFeedLoader where Key == String, Resource == [Player] {
    /// Players of a team.
    public static func players(
        client: any HTTPClient, catalog: RemoteCatalog, dataSourceOfTeam: @escaping @Sendable (String) async -> DataSource
    ) -> Self {
        feed(.players, client: client, catalog: catalog, dataSourceOf: dataSourceOfTeam) { try $0.players(from: $1, in: $2) }
    }
}

extension RemoteFeedLoader where Key == String, Resource == Matches {
    /// Matches of a league.
    public static func matches(
        client: any HTTPClient, catalog: RemoteCatalog, dataSourceOfLeague: @escaping @Sendable (String) async -> DataSource
    ) -> Self {
        feed(.matches, client: client, catalog: catalog, dataSourceOf: dataSourceOfLeague) { try $0.matches(from: $1, in: $2) }
    }
}
