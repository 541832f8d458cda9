import Glibc

/// The socket ligasd accepts on: either one systemd passed in (socket activation) or one it
/// bound itself with `--socket PATH`.
public struct ListeningSocket: Sendable {
    public let fd: Int32
    /// Set when ligasd bound the path itself (and so removes it when it stops).
    public let ownedPath: String?

    /// Adopts an already listening socket (from systemd), making it non-blocking.
    public static func adopt(fd: Int32) throws(SocketError) -> ListeningSocket {
        try UnixSocket.setNonBlocking(fd)
        return ListeningSocket(fd: fd, ownedPath: nil)
    }

    /// Binds and listens on `path`. A stale socket file (nobody accepting) is removed first; a
    /// live one, or anything that is not a socket, is left alone and reported.
    public static func bind(path: String, mode: mode_t = 0o660, backlog: Int32 = 256) throws(SocketError) -> ListeningSocket {
        let address = try UnixSocketAddress(path: path)
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
            guard !UnixSocket.isLive(path: path) else { throw .addressInUse(path: path) }
            unlink(path)
        }
        let fd = try UnixSocket.stream()
        // Bind under a restrictive umask so the socket never exists with looser permissions.
        let oldMask = umask(0o777 & ~mode)
        let bound = address.withSockaddr { Glibc.bind(fd, $0, $1) }
        umask(oldMask)
        guard bound == 0 else {
            let error = SocketError.last("bind")
            Glibc.close(fd)
            throw error
        }
        guard chmod(path, mode) == 0, listen(fd, backlog) == 0 else {
            let error = SocketError.last("listen")
            Glibc.close(fd)
            unlink(path)
            throw error
        }
        return ListeningSocket(fd: fd, ownedPath: path)
    }

    /// Closes the socket; removes the path if ligasd created it.
    public func close() {
        _ = Glibc.close(fd)
        if let ownedPath { unlink(ownedPath) }
    }
}
