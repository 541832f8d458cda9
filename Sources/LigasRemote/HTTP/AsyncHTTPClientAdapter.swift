import AsyncHTTPClient
import FoundationEssentials
import LigasDomain
import NIOCore
import NIOFoundationEssentialsCompat

/// `HTTPClient` over AsyncHTTPClient, with timeouts, a redirect limit, a body size cap, and
/// keys kept to the origin they were given for (`RedirectStep`).
public final class AsyncHTTPClientAdapter: HTTPClient {
    public struct Limits: Sendable {
        public var connectTimeout: TimeAmount = .seconds(5)
        /// Longest silence between two reads of a response; what catches a stalled remote.
        public var readTimeout: TimeAmount = .seconds(10)
        /// Longest a whole request may wait for the remote, body included (not the time its
        /// consumer takes between chunks: a client that reads slowly is no fault of the remote).
        public var requestTimeout: TimeAmount = .seconds(60)
        public var maxRedirects = 3

        public init() {}
    }

    private let client: AsyncHTTPClient.HTTPClient
    private let limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
        var configuration = AsyncHTTPClient.HTTPClient.Configuration(
            redirectConfiguration: .disallow,  // followed in `get`, see `RedirectStep`
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
        let deadline = NIODeadline.now() + limits.requestTimeout
        let response = try await responseFollowingRedirects(of: url, headers: headers, deadline: deadline)
        let contentLength = response.headers.first(name: "content-length").flatMap { Int($0) }
        if let contentLength, contentLength > maxBodyBytes { throw RemoteFailure.bodyTooLarge(maxBodyBytes, url: url) }
        let head = HTTPResponseHead(
            status: Int(response.status.code),
            contentType: response.headers.first(name: "content-type"),
            contentLength: contentLength,
            headers: Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        )
        let budget = Duration.nanoseconds((deadline - .now()).nanoseconds)
        return (head, LimitedBody(base: response.body, waitBudget: budget, maxBytes: maxBodyBytes, url: url, limits: failureLimits))
    }

    /// The first answer that is not a redirect; at most `maxRedirects` followed, none twice. Each
    /// redirect's body is dropped unread, which ends its request.
    private func responseFollowingRedirects(of url: URL, headers: [String: String], deadline: NIODeadline) async throws -> HTTPClientResponse {
        var step = RedirectStep(url: url, headers: headers)
        var visited: Set<String> = [url.absoluteString]
        while true {
            var request = HTTPClientRequest(url: step.url.absoluteString)
            for (name, value) in step.headers { request.headers.add(name: name, value: value) }
            let response: HTTPClientResponse
            do {
                response = try await executeRetryingClosedConnection(request, deadline: deadline)
            } catch {
                throw RemoteFailure.transfer(error, url: step.url, limits: failureLimits)
            }
            guard let next = RedirectStep.next(
                after: step.url, headers: step.headers, status: Int(response.status.code),
                location: response.headers.first(name: "location"))
            else { return response }
            guard visited.count <= limits.maxRedirects else {
                throw RemoteFailure.transfer(HTTPClientError.redirectLimitReached, url: url, limits: failureLimits)
            }
            guard visited.insert(next.url.absoluteString).inserted else {
                throw RemoteFailure.transfer(HTTPClientError.redirectCycleDetected, url: url, limits: failureLimits)
            }
            step = next
        }
    }

    /// Sends `request`, and once more when the remote closed the connection before answering: a
    /// kept-alive connection the server closed (as servers may, without a word) just as the
    /// request went out on it. A GET may be sent again (RFC 9110 §9.2.2); the second goes out on
    /// a new connection, since the pool drops a closed one.
    private func executeRetryingClosedConnection(_ request: HTTPClientRequest, deadline: NIODeadline) async throws -> HTTPClientResponse {
        do {
            return try await client.execute(request, deadline: deadline)
        } catch where RemoteFailure.closedBeforeAnswering(error) {
            return try await client.execute(request, deadline: deadline)
        }
    }

    private var failureLimits: RemoteFailure.Limits {
        RemoteFailure.Limits(
            connectTimeout: limits.connectTimeout, readTimeout: limits.readTimeout,
            requestTimeout: limits.requestTimeout, maxRedirects: limits.maxRedirects)
    }

    /// AsyncHTTPClient's body as `Data` chunks, refusing more than `maxBytes` in total, and
    /// waiting for them no longer than what is left of the request's time (see `BodyReader`).
    struct LimitedBody: AsyncSequence, Sendable {
        typealias Element = Data
        let base: HTTPClientResponse.Body
        let waitBudget: Duration
        let maxBytes: Int
        let url: URL
        let limits: RemoteFailure.Limits

        func makeAsyncIterator() -> Iterator {
            Iterator(base: BodyReader(base.makeAsyncIterator(), waitBudget: waitBudget), maxBytes: maxBytes, url: url, limits: limits)
        }

        struct Iterator: AsyncIteratorProtocol {
            let base: BodyReader
            let maxBytes: Int
            let url: URL
            let limits: RemoteFailure.Limits
            var received = 0

            mutating func next() async throws -> Data? {
                let buffer: ByteBuffer?
                do {
                    buffer = try await base.next(readTimeout: .nanoseconds(limits.readTimeout.nanoseconds))
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

    /// Reads the body within what is left of the request's time. AsyncHTTPClient's deadline ends
    /// with the head, and its read timeout with each silence: a remote that trickles a byte a
    /// second trips neither and would hold the request (and a daemon draining for shutdown) for
    /// ever. Only the time spent waiting here counts: an image is read from the remote as its
    /// client reads it, and a client that reads slowly must not fail as a slow remote.
    ///
    /// `@unchecked Sendable`: one consumer, one `next` at a time (the body is single-pass).
    final class BodyReader: @unchecked Sendable {
        private var iterator: HTTPClientResponse.Body.AsyncIterator
        private var waitBudget: Duration

        init(_ iterator: HTTPClientResponse.Body.AsyncIterator, waitBudget: Duration) {
            self.iterator = iterator
            self.waitBudget = waitBudget
        }

        func next(readTimeout: Duration) async throws -> ByteBuffer? {
            guard waitBudget > .zero else { throw HTTPClientError.deadlineExceeded }
            let started = ContinuousClock.now
            defer { waitBudget -= ContinuousClock.now - started }
            // While more is left than the read timeout, a read that would outlast it fails by the
            // read timeout first: no timer needed, and none paid for per chunk.
            if waitBudget > readTimeout { return try await iterator.next() }
            // A race in a task group, which waits for the loser: here it comes at once, since the
            // body's iterator (NIO's async sequence) throws on cancellation and AsyncHTTPClient
            // then cancels the request. A body source that ignored cancellation would hang here.
            return try await withThrowingTaskGroup(of: ByteBuffer?.self) { [waitBudget] group in
                group.addTask { try await self.iterator.next() }
                group.addTask {
                    try await Task.sleep(for: waitBudget)
                    throw HTTPClientError.deadlineExceeded
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        }
    }
}
