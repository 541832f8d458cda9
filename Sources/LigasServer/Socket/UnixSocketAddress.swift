import Glibc

/// A `sockaddr_un` for a filesystem path.
struct UnixSocketAddress {
    var storage = sockaddr_un()
    let length: socklen_t

    init(path: String) throws(SocketError) {
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: storage.sun_path) else { throw .pathTooLong(path: path) }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
    }

    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}

enum UnixSocket {
    static func stream() throws(SocketError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw .last("socket") }
        return fd
    }

    static func setNonBlocking(_ fd: Int32) throws(SocketError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw .last("fcntl") }
    }

    /// Whether a server accepts connections at `path` right now (a blocking connect attempt).
    static func isLive(path: String) -> Bool {
        guard let address = try? UnixSocketAddress(path: path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return address.withSockaddr { connect(fd, $0, $1) } == 0
    }
}
