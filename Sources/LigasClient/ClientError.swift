import LigasProtocol

/// Everything a client call can fail with, by class, so a CLI can map each to an exit code.
public enum ClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing accepts connections at the socket path (or it cannot be reached).
    case daemonUnreachable(path: String, reason: String)
    /// The daemon answered the request with a named error.
    case server(ErrorBody)
    /// The connection ended before the answer did.
    case connectionClosed
    /// The daemon sent something the protocol does not allow.
    case protocolViolation(String)
    /// A stream's bytes do not match the size or SHA-256 announced in its end frame.
    case integrityCheckFailed(String)
    /// No answer within the client's own timeout.
    case timedOut
    /// The daemon took none of a request's bytes for this long: it is not reading its socket
    /// (stopped, wedged). Not the caller's timeout, which may be longer.
    case daemonNotReading(Duration)

    public var description: String {
        switch self {
        case .daemonUnreachable(let path, let reason): "ligasd is not reachable at \(path): \(reason)"
        case .server(let body): "\(body.code): \(body.message)"
        case .connectionClosed: "the connection to ligasd closed unexpectedly"
        case .protocolViolation(let what): "protocol violation: \(what)"
        case .integrityCheckFailed(let what): "image integrity check failed: \(what)"
        case .timedOut: "ligasd did not answer in time"
        case .daemonNotReading(let limit): "ligasd took no request bytes for \(Self.words(limit)): it is not reading its socket"
        }
    }

    /// "10 s", "300 ms".
    private static func words(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds) s" : "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}
