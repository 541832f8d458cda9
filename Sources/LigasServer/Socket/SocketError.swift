import Glibc

/// Failures setting up the listening socket, named so the daemon can say what to do.
public enum SocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another process is serving on this path; it was left alone.
    case addressInUse(path: String)
    /// Something that is not a socket sits at the path; it was left alone.
    case notASocket(path: String)
    case pathTooLong(path: String)
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .addressInUse(let path): "\(path) is in use by a live server"
        case .notASocket(let path): "\(path) exists and is not a socket"
        case .pathTooLong(let path): "socket path too long: \(path)"
        case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
        }
    }

    static func last(_ call: String) -> SocketError { .system(call: call, errno: errno) }
}
