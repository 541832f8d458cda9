import CEpoll
import Glibc
import Synchronization

/// The one thread that reads the sockets of every LigasClient connection of the process. It waits
/// in `epoll_wait` over all of them, so answers that arrive together on several connections cost
/// one wake-up, and a process with many connections has one reader thread, not one each.
///
/// A connection is in the set unless it is parked (see `ClientConnection`: while its callers read
/// their own answers, or flow control pauses it): out, not merely muted, because epoll reports a
/// hang-up even to a descriptor that asks for no events, and a parked connection must not be read.
final class ReaderThread: Sendable {
    static let shared = ReaderThread()

    private let epoll: Int32
    /// By the value in `epoll_event.data`: a token, never a descriptor (a closed descriptor's
    /// number may come back for another socket before a stale event is read). Weak: a connection
    /// nobody uses goes away even while it is in the set.
    private let connections = Mutex<[UInt64: WeakConnection]>([:])
    private let nextToken = Atomic<UInt64>(1)

    private struct WeakConnection {
        weak var connection: ClientConnection?
    }

    private init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epoll >= 0, "epoll_create1: errno \(errno)")
        DetachedThread.start(name: "ligas-client reader") { [self] in run() }
    }

    /// Registers a connection; it is read (`readAvailable`) whenever it is in the set and its
    /// socket has something, until `forget`.
    func register(_ connection: ClientConnection) -> UInt64 {
        let token = nextToken.add(1, ordering: .relaxed).oldValue
        connections.withLock { $0[token] = WeakConnection(connection: connection) }
        return token
    }

    /// Puts the descriptor in the set (`reading`) or takes it out. The caller says which it is in
    /// now: it serialises these calls (on its queue).
    func setReading(_ reading: Bool, fd: Int32, token: UInt64) {
        if reading {
            var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: token))
            // Cannot fail for an open socket not in the set; if it ever did, the connection's
            // answers would never be read, so stop here rather than hang its callers.
            precondition(epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0, "epoll_ctl: errno \(errno)")
        } else {
            epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil)
        }
    }

    /// Forgets a connection; its descriptor must be out of the set (or closed) by now.
    func forget(_ token: UInt64) {
        _ = connections.withLock { $0.removeValue(forKey: token) }
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let ready = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, Int32($0.count), -1) }
            for index in 0..<Int(max(0, ready)) {  // -1: EINTR
                let token = events[index].data.u64
                // Strong for the read only: the connection may go as soon as it returns.
                let connection = connections.withLock { $0[token]?.connection }
                connection?.readAvailable()
            }
        }
    }
}
