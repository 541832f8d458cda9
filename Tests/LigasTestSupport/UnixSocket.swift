import Foundation

/// A failed socket call, with the errno it set.
public struct SocketCallError: Error, Hashable, CustomStringConvertible {
    public let call: String
    public let errno: Int32

    public init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(String(cString: strerror(errno))) (errno \(errno))" }
}

/// A Unix domain socket owned by a test, closed when released.
public final class UnixSocket {
    public let fileDescriptor: Int32

    public init(type: Int32) throws {
        fileDescriptor = socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fileDescriptor >= 0 else { throw SocketCallError("socket", errno: errno) }
    }

    private init(adopting fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    deinit { close(fileDescriptor) }

    public static func stream() throws -> UnixSocket { try UnixSocket(type: Int32(SOCK_STREAM.rawValue)) }
    public static func datagram() throws -> UnixSocket { try UnixSocket(type: Int32(SOCK_DGRAM.rawValue)) }

    /// `backlog`: how many connections wait to be accepted before `connect` blocks (for a Unix
    /// socket, one more than this).
    public static func listening(at path: String, backlog: Int32 = 8) throws -> UnixSocket {
        let socket = try stream()
        try socket.bind(to: path)
        guard listen(socket.fileDescriptor, backlog) == 0 else { throw SocketCallError("listen", errno: errno) }
        return socket
    }

    public static func pair() throws -> (UnixSocket, UnixSocket) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw SocketCallError("socketpair", errno: errno)
        }
        return (UnixSocket(adopting: fds[0]), UnixSocket(adopting: fds[1]))
    }

    public func bind(to path: String) throws {
        let result = try Self.withAddress(path) { Foundation.bind(fileDescriptor, $0, $1) }
        guard result == 0 else { throw SocketCallError("bind", errno: errno) }
    }

    public func connect(to path: String) throws {
        let result = try Self.withAddress(path) { Foundation.connect(fileDescriptor, $0, $1) }
        guard result == 0 else { throw SocketCallError("connect", errno: errno) }
    }

    public func send(_ text: String, to path: String) throws {
        let bytes = Array(text.utf8)
        let sent = try Self.withAddress(path) { address, length in
            sendto(fileDescriptor, bytes, bytes.count, 0, address, length)
        }
        guard sent == bytes.count else { throw SocketCallError("sendto", errno: errno) }
    }

    /// The next datagram, waiting at most `timeout` (then throws EAGAIN) instead of hanging the run.
    /// Blocks the calling thread: for synchronous tests only; async tests use `receivedDatagrams()`.
    public func receiveDatagram(timeout: Duration = .seconds(10)) throws -> String {
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fileDescriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fileDescriptor, &buffer, buffer.count, 0)
        guard count >= 0 else { throw SocketCallError("recv", errno: errno) }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Every datagram already queued, without waiting (empty when there is none).
    public func receivedDatagrams() throws -> [String] {
        var datagrams: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fileDescriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count >= 0 {
                datagrams.append(String(decoding: buffer[..<count], as: UTF8.self))
                continue
            }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return datagrams }
            throw SocketCallError("recv", errno: errno)
        }
    }

    /// Calls `body` with the `sockaddr_un` of `path`: the one place tests, the benchmark and the
    /// reliability suite build a Unix socket address.
    public static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { throw SocketCallError("socket path \(path)", errno: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
