import FoundationEssentials
import LigasProtocol

/// What the server knows about the caller, for the handler (and its logs).
public struct RequestContext: Sendable {
    public let requestID: UInt32
    public let connectionID: UInt64
    public let peer: PeerCredentials?
    /// The server's live counters, for the `status` method.
    public let statistics: @Sendable () -> ServerStatistics
}

/// A request's answer: a value, a stream of bytes, or a named error.
public enum HandlerOutcome: Sendable {
    case reply(Reply, source: ResultSource?)
    /// A reply already encoded: the response frame's payload as it is.
    case encodedReply([UInt8], source: ResultSource?)
    /// The header goes out as the response; then the chunks (re-cut to the negotiated chunk
    /// size) and a `streamEnd` with the byte count and SHA-256. Chunks must throw `ErrorBody`.
    case stream(OutgoingStream)
    /// A stream whose bytes are all in memory already (a small cached image): sent from the
    /// connection's queue, chunk by chunk, with no task. What `answerNow` answers a stream with.
    case readyStream(ReadyStream)
    case failure(ErrorBody)
}

/// A stream's header and all of its bytes, in memory, with their SHA-256 (for the end frame).
public struct ReadyStream: Sendable {
    public var header: StreamHeader
    public var bytes: Data
    /// Must be the SHA-256 of `bytes`: the client checks it against what it received.
    public var sha256: Data

    public init(header: StreamHeader, bytes: Data, sha256: Data) {
        self.header = header
        self.bytes = bytes
        self.sha256 = sha256
    }

    /// The same stream for a request task to send (see `RequestExchange`).
    var outgoing: OutgoingStream {
        OutgoingStream(header: header, chunks: OneChunk(bytes: bytes), sha256: sha256)
    }

    private struct OneChunk: AsyncSequence, AsyncIteratorProtocol, Sendable {
        var bytes: Data?

        func makeAsyncIterator() -> Self { self }

        mutating func next() async throws -> Data? {
            defer { bytes = nil }
            return bytes
        }
    }
}

/// What a streaming method answers.
public struct OutgoingStream: Sendable {
    public var header: StreamHeader
    public var chunks: any AsyncSequence<Data, any Error> & Sendable
    /// The SHA-256 of all the chunks, when it is already known (a cached image's is computed once,
    /// when it is cached): the server then sends it as it is instead of hashing every chunk. It
    /// must be right: the client checks it against what it received.
    public var sha256: Data?

    public init(header: StreamHeader, chunks: any AsyncSequence<Data, any Error> & Sendable, sha256: Data? = nil) {
        self.header = header
        self.chunks = chunks
        self.sha256 = sha256
    }
}

/// What the server calls for every request; the daemon implements it over the data engine.
public protocol RequestHandler: Sendable {
    /// The answer, when it is ready without waiting (`ping`, `status`, a cache hit already in
    /// memory, a small cached image: a `readyStream`, never a `stream`). The server calls this
    /// first, inside its read handler, and sends what it returns before it reads on (a ready
    /// stream: its header and first chunk, the rest on later turns of the queue): no task, no task
    /// group, no thread hop. Nil: `handle` answers. It must not block: it runs on the connection's
    /// queue.
    func answerNow(_ request: Request, context: RequestContext) -> HandlerOutcome?

    func handle(_ request: Request, context: RequestContext) async -> HandlerOutcome
}

extension RequestHandler {
    public func answerNow(_ request: Request, context: RequestContext) -> HandlerOutcome? { nil }
}
