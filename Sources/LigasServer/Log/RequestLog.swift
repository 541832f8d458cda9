import LigasProtocol
import Logging

/// Where the server writes the one entry each request leaves: "request served" for an answer or
/// an error, "image stream complete|cancelled|failed" for a stream, at the level `entry.level`
/// says (the writer leaves out what its log level does not let through).
///
/// A protocol of its own rather than a `Logger` call, because it runs for every request: the
/// entry is a plain struct, and a writer can lay it out with no metadata dictionary and no
/// interpolated strings (ligasd's journal writer prepares its fixed fields once).
public protocol RequestLog: Sendable {
    func write(_ entry: RequestLogEntry)
    /// Writes out whatever a writer holds back (one that batches entries): the server calls it
    /// when it has shut down, so that no entry is lost at exit.
    func flush()
}

extension RequestLog {
    public func flush() {}
}

/// One request's log entry.
public struct RequestLogEntry: Sendable {
    public let connectionID: UInt64
    public let peer: PeerCredentials?
    public let requestID: UInt32
    public let request: Request
    /// Where a data result came from.
    public var source: ResultSource?
    /// How the request failed; nil when it was answered with its value.
    public var failure: Failure?
    public var durationMicroseconds: Int64
    /// For a stream: what was sent and how it ended; nil for a single answer.
    public var stream: StreamSummary?

    /// What an image stream sent.
    public struct StreamSummary: Sendable {
        public enum Outcome: String, Sendable {
            case complete, cancelled, failed
        }

        public var bytes = 0
        public var chunks = 0
        public var outcome = Outcome.complete
    }

    /// A failure as the entry tells it: its code, and what the error said when the entry knows
    /// it (a remote's failure names its host there, so an operator can tell which remote failed,
    /// and how, from the entry alone).
    public struct Failure: Sendable {
        public var code: ErrorCode
        /// Cut as `LoggedText` cuts it.
        public private(set) var message: String?

        public init(code: ErrorCode, message: String? = nil) {
            self.code = code
            self.message = message.map(LoggedText.cut)
        }

        /// `error`, as sent to the client.
        public init(_ error: ErrorBody) {
            self.init(code: error.code, message: error.message)
        }
    }

    public var errorCode: ErrorCode? { failure?.code }
    public var errorMessage: String? { failure?.message }

    public var message: String {
        stream.map { "image stream \($0.outcome.rawValue)" } ?? "request served"
    }

    /// `debug` for a request answered with its value, `info` for one answered with an error and
    /// for every image stream. So the default level (`info`) shows every failure and every image,
    /// and a busy daemon answering thousands of cached requests a second does not spend more on
    /// their entries (and journald more on storing them) than on the answers; `debug` adds them.
    public var level: Logger.Level {
        stream != nil || errorCode != nil ? .info : .debug
    }
}
