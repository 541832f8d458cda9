import CSystemd
import Glibc

/// A file descriptor systemd passed to the daemon, with its `FileDescriptorName=` (systemd says
/// "unknown" when the unit sets none).
public struct ActivatedSocket: Sendable, Hashable {
    public let fileDescriptor: Int32
    public let name: String

    public init(fileDescriptor: Int32, name: String) {
        self.fileDescriptor = fileDescriptor
        self.name = name
    }
}

public enum SocketActivationError: Error, Hashable, CustomStringConvertible {
    /// `LISTEN_FDS`/`LISTEN_PID`/`LISTEN_FDNAMES` are malformed or a passed fd is not open.
    case listenFDsFailed(SystemdError)
    /// systemd passed something other than a listening Unix stream socket (a datagram socket, a
    /// connected socket, a FIFO…): a socket unit that does not match what the daemon speaks.
    case notAListeningUnixStreamSocket(ActivatedSocket)
    case checkFailed(ActivatedSocket, SystemdError)
    /// Several sockets were passed and none has the name asked for.
    case noSocketNamed(String, passed: [ActivatedSocket])

    public var description: String {
        switch self {
        case .listenFDsFailed(let error): "socket activation: \(error)"
        case .notAListeningUnixStreamSocket(let socket):
            "socket activation: fd \(socket.fileDescriptor) (\"\(socket.name)\") is not a listening Unix stream socket"
        case .checkFailed(let socket, let error):
            "socket activation: fd \(socket.fileDescriptor) (\"\(socket.name)\"): \(error)"
        case .noSocketNamed(let name, let passed):
            "socket activation: no socket named \"\(name)\" among \(passed.map(\.name))"
        }
    }
}

/// The listening sockets systemd passes to a socket-activated daemon.
public enum SocketActivation {
    public static let defaultSocketName = "ligasd"

    /// The sockets passed by systemd, from fd 3 (`SD_LISTEN_FDS_START`) on; empty when the process was
    /// not socket-activated. Throws rather than hand back anything that is not a listening Unix stream
    /// socket. The environment is left as is; libsystemd marks the fds close-on-exec.
    public static func listeningSockets() throws(SocketActivationError) -> [ActivatedSocket] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(0, &names)
        defer { freeStringArray(names) }
        if count < 0 { throw .listenFDsFailed(SystemdError("sd_listen_fds_with_names", returned: count)) }

        let passed = (0..<Int(count)).map { index in
            ActivatedSocket(
                fileDescriptor: SD_LISTEN_FDS_START + Int32(index),
                name: names?[index].map { String(cString: $0) } ?? "unknown")
        }
        return try validated(passed)
    }

    /// The socket named `name`, or the only one passed whatever its name; nil when not socket-activated.
    public static func listeningSocket(named name: String = defaultSocketName) throws(SocketActivationError) -> ActivatedSocket? {
        try select(named: name, from: listeningSockets())
    }

    public static func select(named name: String, from sockets: [ActivatedSocket]) throws(SocketActivationError) -> ActivatedSocket? {
        if let named = sockets.first(where: { $0.name == name }) { return named }
        if sockets.count <= 1 { return sockets.first }
        throw .noSocketNamed(name, passed: sockets)
    }

    /// Each socket must be a Unix stream socket in the listening state (`sd_is_socket_unix`).
    /// Separate from `listeningSockets()` so tests can check fds that are not at 3.
    static func validated(_ sockets: [ActivatedSocket]) throws(SocketActivationError) -> [ActivatedSocket] {
        for socket in sockets {
            let result = sd_is_socket_unix(socket.fileDescriptor, Int32(SOCK_STREAM.rawValue), 1, nil, 0)
            if result < 0 { throw .checkFailed(socket, SystemdError("sd_is_socket_unix", returned: result)) }
            if result == 0 { throw .notAListeningUnixStreamSocket(socket) }
        }
        return sockets
    }

    /// libsystemd returns a NULL-terminated array of malloc'ed strings; both levels are ours to free.
    private static func freeStringArray(_ strings: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) {
        guard let strings else { return }
        var index = 0
        while let string = strings[index] {
            free(string)
            index += 1
        }
        free(strings)
    }
}
