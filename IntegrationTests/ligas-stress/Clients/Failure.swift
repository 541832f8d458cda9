import Foundation
import LigasClient
import LigasProtocol
import LigasTestSupport

/// Why a request failed, by class: whether the connection went away (the daemon stopped or
/// restarted: worth one retry on a new connection), or the daemon answered with a named error,
/// or nothing came back in time.
enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Closed, reset or refused, or `shuttingDown` (the protocol's "retry after reconnecting").
    case connection(String)
    case named(ErrorCode)
    case timedOut
    case other(String)

    init(_ error: any Error) {
        switch error {
        case let failure as Failure: self = failure
        case ClientError.connectionClosed: self = .connection("closed")
        case ClientError.daemonUnreachable(_, let reason): self = .connection("unreachable(\(reason))")
        case ClientError.server(let body) where body.code == .shuttingDown: self = .connection("shuttingDown")
        case ClientError.server(let body): self = .named(body.code)
        case ClientError.timedOut, is TimedOut: self = .timedOut
        case ClientError.protocolViolation(let what): self = .other("protocolViolation(\(what.prefix(80)))")
        case ClientError.integrityCheckFailed(let what): self = .other("integrity(\(what))")
        case is CancellationError: self = .other("cancelled")
        default: self = .other(String(describing: error).prefix(80).description)
        }
    }

    /// The same failure, saying in which phase it happened ("hello:closed" vs "closed").
    func during(_ phase: String) -> Failure {
        if case .connection(let why) = self { return .connection("\(phase):\(why)") }
        return self
    }

    var isConnectionLevel: Bool {
        if case .connection = self { return true }
        return false
    }

    var description: String {
        switch self {
        case .connection(let why): "connection:\(why)"
        case .named(let code): "error:\(code)"
        case .timedOut: "timedOut"
        case .other(let why): "other:\(why)"
        }
    }
}
