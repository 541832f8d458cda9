import FoundationEssentials
import LigasDomain

/// The GETs one feed takes, and how to read their answers.
public struct RemoteRequest: Sendable {
    public let urls: [URL]
    public let headers: [String: String]
    /// Statuses that leave a part absent instead of failing the feed (see `EndpointTable`).
    public let emptyStatuses: Set<Int>
    public let contract: RemoteContract
    public let context: MappingContext
}

/// The configured remotes and their contracts: turns "teams of league X from data source Y"
/// into concrete, credentialed requests. It only ever builds URLs beneath configured base URLs.
public struct RemoteCatalog: Sendable {
    private let sources: [DataSource: RemoteSource]
    private let contracts: [DataSource: RemoteContract]

    public init(sources: [RemoteSource], contracts: [RemoteContract] = RemoteContract.all) {
        self.sources = Dictionary(sources.map { ($0.dataSource, $0) }, uniquingKeysWith: { _, last in last })
        self.contracts = Dictionary(contracts.map { ($0.dataSource, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The contract of a data source, if this build has one.
    public func contract(of dataSource: DataSource) -> RemoteContract? {
        contracts[dataSource]
    }

    public func request(
        _ feed: EndpointTable.Feed, id: String, season: LeagueSeason? = nil, from dataSource: DataSource
    ) throws -> RemoteRequest {
        let (contract, source) = try configured(dataSource)
        guard RemoteID.isSafe(id) else { throw LigasError.notFound("invalid id '\(id)'") }
        if let season, !RemoteID.isSafe(season.seasonID) || !RemoteID.isSafe(season.stageID) {
            throw LigasError.invalidData("\(dataSource) season ids are not plain ids")
        }
        guard let paths = contract.endpoints.paths(feed, .init(id: id, season: season)), !paths.isEmpty else {
            throw LigasError.notFound("\(dataSource) does not provide \(feed.rawValue)")
        }
        return try request(paths, emptyStatuses: contract.endpoints.emptyStatuses[feed] ?? [], contract: contract, source: source)
    }

    /// The listing of a data source's current seasons (`EndpointTable.seasons`).
    public func seasonsRequest(from dataSource: DataSource) throws -> RemoteRequest {
        let (contract, source) = try configured(dataSource)
        guard let path = contract.endpoints.seasons else { throw LigasError.notFound("\(dataSource) lists no seasons") }
        return try request([path], emptyStatuses: [], contract: contract, source: source)
    }

    private func configured(_ dataSource: DataSource) throws -> (RemoteContract, RemoteSource) {
        guard let contract = contracts[dataSource] else {
            throw LigasError.notFound("no contract for data source \(dataSource)")
        }
        guard let source = sources[dataSource] else {
            throw LigasError.connectivity("data source \(dataSource) has no configured base URL")
        }
        return (contract, source)
    }

    private func request(
        _ paths: [String], emptyStatuses: Set<Int>, contract: RemoteContract, source: RemoteSource
    ) throws -> RemoteRequest {
        let urls = try paths.map { path in
            guard let url = URL(string: path, relativeTo: source.baseURL)?.absoluteURL else {
                throw LigasError.notFound("\(source.dataSource) has no usable URL for \(path)")
            }
            return url
        }
        var headers = contract.endpoints.fixedHeaders
        headers["Accept"] = "application/json"
        if let key = source.apiKey {
            let header = contract.endpoints.apiKeyHeader
            headers[header] = header.lowercased() == "authorization" ? "Bearer \(key.value)" : key.value
        }
        return RemoteRequest(
            urls: urls, headers: headers, emptyStatuses: emptyStatuses, contract: contract,
            context: MappingContext(baseURL: source.baseURL, dataSource: source.dataSource)
        )
    }
}

/// Ids end up in URL paths and queries (and, for `file://` sources, in file paths), so only plain
/// ids pass: no slashes, no dot segments, no percent escapes, no query syntax.
enum RemoteID {
    static func isSafe(_ id: String) -> Bool {
        guard (1...128).contains(id.utf8.count), id != ".", id != ".." else { return false }
        return id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }
}
