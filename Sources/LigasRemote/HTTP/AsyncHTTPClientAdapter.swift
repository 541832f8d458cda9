import AsyncHTTPClient
import FoundationEssentials
import LigasDomain
import NIOCore
import NIOFoundationEssentialsCompat

/// `HTTPClient` over AsyncHTTPClient, with timeouts, a redirect limit and a body size cap.
public final class AsyncHTTPClientAdapter: HTTPClient {
    public struct Limits: Sendable {
        public var connectTimeout: TimeAmount = .seconds(5)
        /// Longest silence between two reads of a response; what catches a stalled remote.
        public var readTimeout: TimeAmount = .seconds(10)
        /// Longest a whole request may take, body included.
        public var requestTimeout: TimeAmount = .seconds(60)
        public var maxRedirects = 3

        public init() {}
    }

    private let client: AsyncHTTPClient.HTTPClient
    private let limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
        var configuration = AsyncHTTPClient.HTTPClient.Configuration(
            redirectConfiguration: .follow(max: limits.maxRedirects, allowCycles: false),
            timeout: .init(connect: limits.connectTimeout, read: limits.readTimeout)
        )
        configuration.decompression = .disabled
        // A refused connection means the remote is down: fail at once so the cache can stand in,
        // instead of retrying with backoff until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        self.client = AsyncHTTPClient.HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    public func shutdown() async throws {
        try await client.shutdown()
    }

    public func get(_ url: URL, headers: [String: String], maxBodyBytes: Int) async throws -> (HTTPResponseHead, HTTPBody) {
        var request = HTTPClientRequest(url: url.absoluteString)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: limits.requestTimeout)
        } catch {
            throw RemoteFailure.transfer(error, url: url, limits: failureLimits)
        }
        let contentLength = response.headers.first(name: "content-length").flatMap { Int($0) }
        if let contentLength, contentLength > maxBodyBytes { throw RemoteFailure.bodyTooLarge(maxBodyBytes, url: url) }
        let head = HTTPResponseHead(
            status: Int(response.status.code),
            contentType: response.headers.first(name: "content-type"),
            contentLength: contentLength,
            headers: Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        )
        return (head, LimitedBody(base: response.body, maxBytes: maxBodyBytes, url: url, limits: failureLimits))
    }

    private var failureLimits: RemoteFailure.Limits {
        RemoteFailure.Limits(
            connectTimeout: limits.connectTimeout, readTimeout: limits.readTimeout,
            requestTimeout: limits.requestTimeout, maxRedirects: limits.maxRedirects)
    }

    /// AsyncHTTPClient's body as `Data` chunks, refusing more than `maxBytes` in total.
    struct LimitedBody: AsyncSequence, Sendable {
        typealias Element = Data
        let base: HTTPClientResponse.Body
        let maxBytes: Int
        let url: URL
        let limits: RemoteFailure.Limits

        func makeAsyncIterator() -> Iterator {
            Iterator(base: base.makeAsyncIterator(), maxBytes: maxBytes, url: url, limits: limits)
        }

        struct Iterator: AsyncIteratorProtocol {
            var base: HTTPClientResponse.Body.AsyncIterator
            let maxBytes: Int
            let url: URL
            let limits: RemoteFailure.Limits
            var received = 0

            mutating func next() async throws -> Data? {
                let buffer: ByteBuffer?
                do {
                    buffer = try await base.next()
                } catch {
                    throw RemoteFailure.transfer(error, url: url, limits: limits)
                }
                guard let buffer else { return nil }
                received += buffer.readableBytes
                guard received <= maxBytes else { throw RemoteFailure.bodyTooLarge(maxBytes, url: url) }
                return Data(buffer: buffer, byteTransferStrategy: .noCopy)
            }
        }
    }
}
