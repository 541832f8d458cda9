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

    /// Connects without ever blocking: a daemon whose listening backlog is full (stopped, or
    /// swamped) makes a blocking `connect` wait for as long as it stays so, past any timeout or
    /// Ctrl-C. Non-blocking, the kernel says `EAGAIN` instead, and the attempt is made again
    /// every few milliseconds until it succeeds, fails otherwise, or the task is cancelled.
    static func connect(path: String) async throws -> ClientSocket {
        var address = sockaddr_un()
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw ClientError.daemonUnreachable(path: path, reason: "socket path too long")
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw ClientError.daemonUnreachable(path: path, reason: String(cString: strerror(errno))) }
        let socket = ClientSocket(fd: fd)  // closes the descriptor if connecting fails
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        while true {
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
            }
            if connected == 0 { return socket }
            switch errno {
            case EINTR: continue
            case EAGAIN: try await Task.sleep(for: .milliseconds(5))  // throws once cancelled
            default: throw ClientError.daemonUnreachable(path: path, reason: String(cString: strerror(errno)))
            }
        }
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
