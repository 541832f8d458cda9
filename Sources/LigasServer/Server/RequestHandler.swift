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
    /// A stream whose bytes are ready to be read (a small cached image in memory, or a cached
    /// image's pieces in the cache file): sent from the connection's queue, a piece read and a chunk
    /// sent per turn, with no task. What `answerNow` answers a stream with; `handle` may answer one
    /// too (its task then hands it to the connection).
    case readyStream(ReadyStream)
    case failure(ErrorBody)
}

/// A stream's header, its bytes as pieces read one at a time, and their SHA-256 (for the end frame).
public struct ReadyStream: Sendable {
    public var header: StreamHeader
    public var pieceCount: Int
    /// Piece `index` (0..<pieceCount), asked in order, each once. Runs on the connection's queue,
    /// which every connection shares: it may read memory or a local file (a SQLite read, which in
    /// WAL mode waits for no writer), and must not wait for the network, a write, or other work.
    /// What it throws must be an `ErrorBody`: the stream ends with it.
    public var piece: @Sendable (_ index: Int) throws -> Data
    /// Must be the SHA-256 of all the pieces: the client checks it against what it received.
    public var sha256: Data

    public init(header: StreamHeader, pieceCount: Int, sha256: Data, piece: @escaping @Sendable (_ index: Int) throws -> Data) {
        self.header = header
        self.pieceCount = pieceCount
        self.piece = piece
        self.sha256 = sha256
    }

    /// Bytes all in memory, as one piece.
    public init(header: StreamHeader, bytes: Data, sha256: Data) {
        self.init(header: header, pieceCount: 1, sha256: sha256) { _ in bytes }
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
    /// The same stream ready to be read, when it is one: `MethodRouter` answers it as a
    /// `HandlerOutcome.readyStream`, which the request's task hands to the connection.
    public private(set) var ready: ReadyStream?

    public init(header: StreamHeader, chunks: any AsyncSequence<Data, any Error> & Sendable, sha256: Data? = nil) {
        self.header = header
        self.chunks = chunks
        self.sha256 = sha256
    }

    /// A ready stream, for a method that answers with an `OutgoingStream`.
    public init(_ ready: ReadyStream) {
        self.init(header: ready.header, chunks: ReadyPieces(ready: ready), sha256: ready.sha256)
        self.ready = ready
    }

    private struct ReadyPieces: AsyncSequence, AsyncIteratorProtocol, Sendable {
        let ready: ReadyStream
        var index = 0

        func makeAsyncIterator() -> Self { self }

        mutating func next() async throws -> Data? {
            guard index < ready.pieceCount else { return nil }
            defer { index += 1 }
            return try ready.piece(index)
        }
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
