import FoundationEssentials
import LigasDomain

/// What the remote loaders need to know about a response before reading its body.
public struct HTTPResponseHead: Hashable, Sendable {
    public let status: Int
    public let contentType: String?
    public let contentLength: Int?
    /// Every header of the response, names in lower case (the first of repeated ones).
    public let headers: [String: String]

    public init(status: Int, contentType: String?, contentLength: Int?, headers: [String: String] = [:]) {
        self.status = status
        self.contentType = contentType
        self.contentLength = contentLength
        self.headers = headers
    }
}

/// A response body, pulled chunk by chunk (so a slow consumer slows the download down).
public typealias HTTPBody = any AsyncSequence<Data, any Error> & Sendable

/// The remote layer's port to the network.
///
/// Implementations speak the domain's errors directly: `LigasError.connectivity` for anything
/// that stops the transfer (DNS, refused, timeout, a connection closed mid-body) and
/// `LigasError.invalidData` for a body over `maxBodyBytes`, announced or actual.
public protocol HTTPClient: Sendable {
    func get(_ url: URL, headers: [String: String], maxBodyBytes: Int) async throws -> (HTTPResponseHead, HTTPBody)
}

extension HTTPClient {
    /// GET and read the whole body (at most `maxBodyBytes`) into memory.
    public func getData(_ url: URL, headers: [String: String], maxBodyBytes: Int) async throws -> (HTTPResponseHead, Data) {
        let (head, body) = try await get(url, headers: headers, maxBodyBytes: maxBodyBytes)
        var data = Data()
        for try await chunk in body { data.append(chunk) }
        return (head, data)
    }
}
