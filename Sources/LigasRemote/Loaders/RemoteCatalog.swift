import Foundation
import LigasDomain

/// One GET the remote loaders will make, and how to read its answer.
public struct RemoteRequest: Sendable {
    public let url: URL
    public let headers: [String: String]
    public let contract: RemoteContract
    public let context: MappingContext
}

/// The configured remotes and their contracts: turns "teams of league X from data source Y"
/// into a concrete, credentialed request. It only ever builds URLs beneath configured base URLs.
public struct RemoteCatalog: Sendable {
    private let sources: [DataSource: RemoteSource]
    private let contracts: [DataSource: RemoteContract]

    public init(sources: [RemoteSource], contracts: [RemoteContract] = RemoteContract.all) {
        self.sources = Dictionary(sources.map { ($0.dataSource, $0) }, uniquingKeysWith: { _, last in last })
        self.contracts = Dictionary(contracts.map { ($0.dataSource, $0) }, uniquingKeysWith: { _, last in last })
    }

    public func request(
        _ feed: EndpointTable.Feed, id: String, from dataSource: DataSource
    ) throws -> RemoteRequest {
        guard let contract = contracts[dataSource] else {
            throw LigasError.notFound("no contract for data source \(dataSource)")
        }
        guard let source = sources[dataSource] else {
            throw LigasError.connectivity("data source \(dataSource) has no configured base URL")
        }
        guard RemoteID.isSafe(id) else { throw LigasError.notFound("invalid id '\(id)'") }
        guard let path = contract.endpoints.path(of: feed, id: id),
              let url = URL(string: path, relativeTo: source.baseURL)?.absoluteURL
        else { throw LigasError.notFound("\(dataSource) does not provide this feed") }
        var headers: [String: String] = ["Accept": "application/json"]
        if let key = source.apiKey {
            let header = contract.endpoints.apiKeyHeader
            headers[header] = header.lowercased() == "authorization" ? "Bearer \(key.value)" : key.value
        }
        return RemoteRequest(
            url: url, headers: headers, contract: contract,
            context: MappingContext(baseURL: source.baseURL, dataSource: dataSource)
        )
    }
}

/// Ids end up in URL paths (and, for `file://` sources, in file paths), so only plain ids pass:
/// no slashes, no dot segments, no percent escapes.
enum RemoteID {
    static func isSafe(_ id: String) -> Bool {
        guard (1...128).contains(id.utf8.count), id != ".", id != ".." else { return false }
        return id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }
}
