import Glibc

/// The client's end of the Unix socket: connect, and blocking-with-poll writes on a
/// non-blocking descriptor (the process's reader thread reads it, see `ReaderThread`).
///
/// It owns the descriptor and closes it when it goes, with its connection, which has taken it out
/// of the reader thread's set by then: so the number is never closed while the set still
/// watches it, and a new socket that reuses the number cannot inherit that watch.
final class ClientSocket: Sendable {
    let fd: Int32

    private init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        Glibc.close(fd)
    }

    static func connect(path: String) throws(ClientError) -> ClientSocket {
        var address = sockaddr_un()
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw .daemonUnreachable(path: path, reason: "socket path too long")
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .daemonUnreachable(path: path, reason: String(cString: strerror(errno))) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .daemonUnreachable(path: path, reason: reason)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return ClientSocket(fd: fd)
    }

    enum WriteOutcome { case written, closed, stalled }

    /// Writes everything, waiting for the socket to drain when it is full, but not longer than
    /// `stallLimit` without progress: a daemon that stopped reading (stopped, wedged) must not hold
    /// the caller, nor the connection's queue, for ever.
    func writeAll(_ bytes: [UInt8], stallLimit: Duration) -> WriteOutcome {
        var offset = 0
        var lastProgress = ContinuousClock.now
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                offset += written
                lastProgress = .now
            } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                let waited = ContinuousClock.now - lastProgress
                guard waited < stallLimit else { return .stalled }
                var waiting = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let remaining = ((stallLimit - waited) / .milliseconds(1)).rounded(.up)
                _ = poll(&waiting, 1, Int32(min(max(remaining, 1), 1000)))
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return .closed
            }
        }
        return .written
    }
}
