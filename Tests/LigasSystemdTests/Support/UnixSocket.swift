import Foundation
import LigasSystemd

/// A Unix domain socket owned by a test, closed when released.
final class UnixSocket {
    let fileDescriptor: Int32

    init(type: Int32) throws {
        fileDescriptor = socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fileDescriptor >= 0 else { throw SystemdError("socket", errno: errno) }
    }

    private init(adopting fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    deinit { close(fileDescriptor) }

    static func stream() throws -> UnixSocket { try UnixSocket(type: Int32(SOCK_STREAM.rawValue)) }
    static func datagram() throws -> UnixSocket { try UnixSocket(type: Int32(SOCK_DGRAM.rawValue)) }

    static func listening(at path: String) throws -> UnixSocket {
        let socket = try stream()
        try socket.bind(to: path)
        guard listen(socket.fileDescriptor, 8) == 0 else { throw SystemdError("listen", errno: errno) }
        return socket
    }

    static func pair() throws -> (UnixSocket, UnixSocket) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw SystemdError("socketpair", errno: errno)
        }
        return (UnixSocket(adopting: fds[0]), UnixSocket(adopting: fds[1]))
    }

    func bind(to path: String) throws {
        let result = try Self.withAddress(path) { Foundation.bind(fileDescriptor, $0, $1) }
        guard result == 0 else { throw SystemdError("bind", errno: errno) }
    }

    func connect(to path: String) throws {
        let result = try Self.withAddress(path) { Foundation.connect(fileDescriptor, $0, $1) }
        guard result == 0 else { throw SystemdError("connect", errno: errno) }
    }

    func send(_ text: String, to path: String) throws {
        let bytes = Array(text.utf8)
        let sent = try Self.withAddress(path) { address, length in
            sendto(fileDescriptor, bytes, bytes.count, 0, address, length)
        }
        guard sent == bytes.count else { throw SystemdError("sendto", errno: errno) }
    }

    /// The next datagram, waiting at most `timeout` (then throws EAGAIN) instead of hanging the run.
    func receiveDatagram(timeout: Duration = .seconds(10)) throws -> String {
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fileDescriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fileDescriptor, &buffer, buffer.count, 0)
        guard count >= 0 else { throw SystemdError("recv", errno: errno) }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    private static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { throw SystemdError("socket path \(path)", errno: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}

/// A pipe whose write end a handler writes to, read back by the test once the write end is closed.
final class CapturePipe {
    let readEnd: Int32
    private(set) var writeEnd: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SystemdError("pipe", errno: errno) }
        readEnd = fds[0]
        writeEnd = fds[1]
        // Not inherited by the processes other tests spawn, which would keep the write end open.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    deinit {
        close(readEnd)
        closeWriteEnd()
    }

    func closeWriteEnd() {
        if writeEnd >= 0 { close(writeEnd) }
        writeEnd = -1
    }

    /// Everything written, once every writer is done (closes the write end, reads to EOF).
    func readAll() -> String {
        closeWriteEnd()
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            data.append(contentsOf: buffer[..<count])
        }
        return String(decoding: data, as: UTF8.self)
    }
}
