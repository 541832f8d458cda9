import CEpoll
import Dispatch
import Glibc

/// Every connection of the server on one epoll set, drained from one Dispatch read source, on one
/// serial queue: the queue all connection state lives on.
///
/// Why not a read source per connection: on Linux each Dispatch source event passes through
/// Dispatch's manager thread (epoll, an ioctl, a push to a worker thread), and a one-shot source
/// is armed again through the manager after every handler (an eventfd write, a wake-up, an
/// `epoll_ctl`): about seven system calls and two thread wake-ups per request, more than the
/// request itself costs. Here the connections are edge-triggered in an epoll set of ours, and
/// Dispatch watches only that set: one wake-up serves every connection that is ready, and a
/// request costs its read and its write.
///
/// Edge-triggered: a connection is told once that bytes arrived, so it must read until the
/// socket is empty, or ask to be read again (`readAgain`) when it stops early for fairness.
final class EventLoop: @unchecked Sendable {
    /// What a registered descriptor is told.
    struct Handlers {
        let readable: () -> Void
        let writable: () -> Void
    }

    let queue: DispatchQueue
    private let epoll: Int32
    private var source: (any DispatchSourceRead)?
    /// By the value in `epoll_event.data`: a token, never a descriptor (a closed descriptor's number
    /// may come back for another socket before a stale event is read).
    private var registered: [UInt64: (fd: Int32, handlers: Handlers)] = [:]
    private var nextToken: UInt64 = 1
    private var again: [UInt64] = []
    private var draining = false
    private var events = [epoll_event](repeating: epoll_event(), count: 64)

    init(label: String, target: DispatchQueue) {
        queue = DispatchQueue(label: label, target: target)
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epoll >= 0, "epoll_create1: errno \(errno)")
        queue.setSpecific(key: Self.key, value: ObjectIdentifier(self))
        let source = DispatchSource.makeReadSource(fileDescriptor: epoll, queue: queue)
        source.setEventHandler { [weak self] in self?.drain() }
        source.setCancelHandler { [epoll] in Glibc.close(epoll) }  // once Dispatch no longer watches it
        self.source = source
        source.resume()
    }

    /// Stops the loop, once the server has no connection left: the source goes, and with it the
    /// epoll set.
    func close() {
        queue.sync { source?.cancel() }
    }

    deinit {
        source?.cancel()
    }

    /// Whether the caller runs on this loop's queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == ObjectIdentifier(self) }

    private static let key = DispatchSpecificKey<ObjectIdentifier>()

    /// Watches `fd` for input (and the peer's hang-up) from now on. Returns its token.
    func register(_ fd: Int32, _ handlers: Handlers) -> UInt64 {
        dispatchPrecondition(condition: .onQueue(queue))
        let token = nextToken
        nextToken += 1
        registered[token] = (fd, handlers)
        control(EPOLL_CTL_ADD, fd, token, writable: false)
        return token
    }

    /// Also tells of writability while `wanted`: only while output waits, so that a connection
    /// whose answers fit the socket is not woken each time its client reads them.
    func watchWritable(_ token: UInt64, _ wanted: Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let fd = registered[token]?.fd else { return }
        control(EPOLL_CTL_MOD, fd, token, writable: wanted)
    }

    /// Stops watching; the caller closes the descriptor afterwards (never before: a number
    /// closed while still in the set could be reused by a socket that would inherit its watch).
    func unregister(_ token: UInt64) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let fd = registered.removeValue(forKey: token)?.fd else { return }
        epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil)
    }

    /// The connection stopped reading before the socket was empty (to let others have a turn):
    /// read it again after the ones that are ready now.
    func readAgain(_ token: UInt64) {
        dispatchPrecondition(condition: .onQueue(queue))
        again.append(token)
        // Outside a drain (a connection read on its own, e.g. when the server stops), nothing
        // else would come back for it: epoll tells of new bytes only.
        if !draining, again.count == 1 { queue.async { [self] in drain() } }
    }

    private func control(_ operation: Int32, _ fd: Int32, _ token: UInt64, writable: Bool) {
        var flags = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        if writable { flags |= EPOLLOUT.rawValue }
        var event = epoll_event(events: flags, data: epoll_data_t(u64: token))
        // Cannot fail for a descriptor the server accepted and has not closed; if it ever did, the
        // connection would go unwatched, so stop here rather than hang that client.
        precondition(epoll_ctl(epoll, operation, fd, &event) == 0, "epoll_ctl: errno \(errno)")
    }

    /// Handles what is ready, a bounded number of rounds; if more is left, the source fires
    /// again (the epoll set stays readable) or, for connections to read again, a turn is queued.
    private func drain() {
        draining = true
        defer { draining = false }
        for _ in 0..<8 {
            let ready = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, Int32($0.count), 0) }
            let retries = again
            again.removeAll(keepingCapacity: true)
            guard ready > 0 || !retries.isEmpty else { return }
            for index in 0..<Int(max(0, ready)) {
                let event = events[index]
                guard let handlers = registered[event.data.u64]?.handlers else { continue }
                if event.events & EPOLLOUT.rawValue != 0 { handlers.writable() }
                if event.events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
                    registered[event.data.u64]?.handlers.readable()
                }
            }
            for token in retries { registered[token]?.handlers.readable() }
        }
        if !again.isEmpty { queue.async { [self] in drain() } }
    }
}
