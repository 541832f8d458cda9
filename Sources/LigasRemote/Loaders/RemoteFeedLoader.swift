import FoundationEssentials
import LigasDomain

/// Use case "Load feed from remote": GET each part of the feed, check the status, map the payloads.
///
/// - 200: the mapped value, or `invalidData` naming what is wrong with the payload, and where.
/// - A status the contract reads as "nothing here" (FlashLive's 404 for results or fixtures):
///   that part is absent.
/// - 404 or 410: `notFound`. Any other status: `invalidData`.
/// - No answer (DNS, refused, timeout, cut off): `connectivity`.
public struct RemoteFeedLoader<Key: Hashable & Sendable, Resource: Sendable>: Loader {
    public static var defaultMaxBodyBytes: Int { 4 * 1024 * 1024 }

    private let client: any HTTPClient
    private let maxBodyBytes: Int
    private let request: @Sendable (Key) async throws -> RemoteRequest
    private let map: @Sendable ([Data?], RemoteRequest) throws -> Resource

    public init(
        client: any HTTPClient,
        maxBodyBytes: Int = RemoteFeedLoader.defaultMaxBodyBytes,
        request: @escaping @Sendable (Key) async throws -> RemoteRequest,
        map: @escaping @Sendable ([Data?], RemoteRequest) throws -> Resource
    ) {
        self.client = client
        self.maxBodyBytes = maxBodyBytes
        self.request = request
        self.map = map
    }

    public func load(_ key: Key) async throws -> Loaded<Resource> {
        let request = try await request(key)
        var parts: [Data?] = []
        for url in request.urls {
            let (head, body) = try await client.getData(url, headers: request.headers, maxBodyBytes: maxBodyBytes)
            if request.emptyStatuses.contains(head.status) {
                parts.append(nil)
                continue
            }
            try RemoteStatus.check(head.status, url: url)
            parts.append(body)
        }
        do {
            return Loaded(try map(parts, request), from: .remote)
        } catch LigasError.invalidData(let what) {
            // The parts that came (an absent one broke nothing); the mapper does not say which.
            let answered = zip(request.urls, parts).compactMap { url, part in part.map { _ in url } }
            throw RemoteFailure.contractBroken(what, urls: answered.isEmpty ? request.urls : answered)
        }
    }
}

/// Finds the season a data source files a league under (see `EndpointTable.seasons`).
public typealias SeasonLookup = @Sendable (DataSource, String) async throws -> LeagueSeason

/// For sources that file no league by season.
public let noSeasons: SeasonLookup = { source, league in
    throw LigasError.notFound("no season of league '\(league)' at \(source)")
}

/// A feed of one GET: its payload.
func singlePayload<Resource>(_ parts: [Data?], _ map: (Data) throws -> Resource) throws -> Resource {
    guard parts.count == 1, let data = parts[0] else { throw LigasError.invalidData("expected one payload") }
    return try map(data)
}

enum RemoteStatus {
    static func check(_ status: Int, url: URL) throws {
        guard status == 200 else { throw RemoteFailure.status(status, url: url) }
    }
}

extension RemoteFeedLoader where Key == String {
    /// A feed keyed by a league or team id, from whichever data source serves that id:
    /// `endpoint` picks the paths from the source's endpoint table, `map` its mapper's method.
    /// A league's feed at a source that files leagues by season gets the season from `seasonOf`.
    public static func feed(
        _ endpoint: EndpointTable.Feed,
        client: any HTTPClient, catalog: RemoteCatalog,
        dataSourceOf: @escaping @Sendable (String) async throws -> DataSource,
        seasonOf: @escaping SeasonLookup = noSeasons,
        map: @escaping @Sendable (any PayloadMapper, [Data?], MappingContext) throws -> Resource
    ) -> Self {
        Self(client: client, request: { id in
            let dataSource = try await dataSourceOf(id)
            let needsSeason = catalog.contract(of: dataSource)?.endpoints.needsSeason(endpoint) ?? false
            let season = needsSeason ? try await seasonOf(dataSource, id) : nil
            return try catalog.request(endpoint, id: id, season: season, from: dataSource)
        }, map: { parts, request in
            try map(request.contract.mapper, parts, request.context)
        })
    }

}

extension RemoteFeedLoader where Key == String, Resource == [Team] {
    /// Teams of a league.
    public static func teams(
        client: any HTTPClient, catalog: RemoteCatalog, dataSourceOfLeague: @escaping @Sendable (String) async throws -> DataSource,
        seasonOf: @escaping SeasonLookup = noSeasons
    ) -> Self {
        feed(.teams, client: client, catalog: catalog, dataSourceOf: dataSourceOfLeague, seasonOf: seasonOf) { mapper, parts, context in
            try singlePayload(parts) { try mapper.teams(from: $0, in: context) }
        }
    }
}

extension RemoteFeedLoader where Key == String, Resource == [Player] {
    /// Players of a team.
    public static func players(
        client: any HTTPClient, catalog: RemoteCatalog, dataSourceOfTeam: @escaping @Sendable (String) async throws -> DataSource
    ) -> Self {
        feed(.players, client: client, catalog: catalog, dataSourceOf: dataSourceOfTeam) { mapper, parts, context in
            try singlePayload(parts) { try mapper.players(from: $0, in: context) }
        }
    }
}

extension RemoteFeedLoader where Key == String, Resource == Matches {
    /// Matches of a league.
    public static func matches(
        client: any HTTPClient, catalog: RemoteCatalog, dataSourceOfLeague: @escaping @Sendable (String) async throws -> DataSource,
        seasonOf: @escaping SeasonLookup = noSeasons
    ) -> Self {
        feed(.matches, client: client, catalog: catalog, dataSourceOf: dataSourceOfLeague, seasonOf: seasonOf) { mapper, parts, context in
            try mapper.matches(fromParts: parts, in: context)
        }
    }
}

extension RemoteFeedLoader where Key == String, Resource == [Standing] {
    /// The table of a league.
    public static func standings(
        client: any HTTPClient, catalog: RemoteCatalog, dataSourceOfLeague: @escaping @Sendable (String) async throws -> DataSource,
        seasonOf: @escaping SeasonLookup = noSeasons
    ) -> Self {
        feed(.standings, client: client, catalog: catalog, dataSourceOf: dataSourceOfLeague, seasonOf: seasonOf) { mapper, parts, context in
            try singlePayload(parts) { try mapper.standings(from: $0, in: context) }
        }
    }
}

extension RemoteFeedLoader where Key == DataSource, Resource == [LeagueSeason] {
    /// The current seasons of a data source's leagues. The listing covers every league of the
    /// sport (FlashLive's is a few MiB), hence its larger cap; only the seasons found are kept.
    public static func seasons(client: any HTTPClient, catalog: RemoteCatalog) -> Self {
        Self(client: client, maxBodyBytes: 32 << 20, request: { try catalog.seasonsRequest(from: $0) }, map: { parts, request in
            try singlePayload(parts) { try request.contract.mapper.seasons(from: $0, in: request.context) }
        })
    }
}
