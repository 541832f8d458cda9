import FoundationEssentials
import LigasDomain

/// Sends `file://` URLs to one client and `http(s)://` URLs to another; refuses any other scheme.
public struct SchemeRoutingHTTPClient: HTTPClient {
    private let file: any HTTPClient
    private let http: any HTTPClient

    public init(file: any HTTPClient = FileSystemHTTPClient(), http: any HTTPClient) {
        self.file = file
        self.http = http
    }

    public func get(_ url: URL, headers: [String: String], maxBodyBytes: Int) async throws -> (HTTPResponseHead, HTTPBody) {
        switch url.scheme?.lowercased() {
        case "file": try await file.get(url, headers: headers, maxBodyBytes: maxBodyBytes)
        case "http", "https": try await http.get(url, headers: headers, maxBodyBytes: maxBodyBytes)
        default: throw LigasError.notFound("unsupported URL scheme '\(url.scheme ?? "")'")
        }
    }
}
