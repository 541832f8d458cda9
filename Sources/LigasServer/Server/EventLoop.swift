import CEpoll
import Dispatch
import Glibc
import Synchronization

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
///
/// Lingering: a request that finds the loop idle in Dispatch wakes Dispatch's manager thread,
/// which wakes a worker to run `drain`: two wake-ups before the reply, where a blocking server
/// has one. So once `drain` has served something, it waits on the set itself for `linger` before
/// giving its thread back: a client that asks again right after its answer (a list, then its
/// logos; a benchmark) is read by a thread the kernel wakes directly.
///
/// Work handed over with `execute` waits in an inbox, in order: `drain` runs it between its
/// rounds on the set (handed over during a linger, it rings an eventfd in the set, which ends the
/// wait), and a block on the queue runs it when no drain does. So a stream that sends a chunk,
/// waits for room and sends the next (each step handed over with `execute`) goes on in one drain
/// (for up to 64 rounds, while room comes within a linger), woken by the kernel when the socket
/// has room, where a drain that ended at each step cost Dispatch's manager thread a wake-up to arm
/// the source again and another for the next event (Benchmarks/HISTORY.md, twentieth stop). Only `close`, which waits for the queue, ends a drain
/// early; a timer on the queue waits for the drain to end (at most 64 rounds).
final class EventLoop: @unchecked Sendable {
    /// What a registered descriptor is told. `readable` says whether epoll also reported the
    /// end of the peer's input (`EPOLLRDHUP` or `EPOLLHUP`). It comes with the bytes that came
    /// before it, and again only if something else wakes the descriptor: a reader that stops at
    /// a short read must remember it.
    struct Handlers {
        let readable: (_ inputEnded: Bool) -> Void
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
    /// How long `drain` waits for more once it has served something (see the type's comment).
    private let linger: timespec
    /// An eventfd in the set, under a token no connection gets: rung to end a linger.
    private let doorbell: Int32
    private static let doorbellToken: UInt64 = 0
    /// Work handed over with `execute` and not yet taken to run, in order, and whether a block
    /// that runs it is queued; `drain` lingers only while it is empty.
    private let inbox = Mutex(Inbox())
    private struct Inbox {
        var work: [@Sendable () -> Void] = []
        var blockQueued = false
    }
    /// Set by `close`, which then waits for the queue: a drain ends, or does not start.
    private let closing = Atomic<Bool>(false)
    /// Set while `drain` may be waiting in a linger: `execute` then rings.
    private let lingering = Atomic<Bool>(false)

    init(label: String, target: DispatchQueue, linger: Duration) {
        self.linger = linger.timespec
        queue = DispatchQueue(label: label, target: target)
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epoll >= 0, "epoll_create1: errno \(errno)")
        doorbell = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(doorbell >= 0, "eventfd: errno \(errno)")
        var ring = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: Self.doorbellToken))
        precondition(epoll_ctl(epoll, EPOLL_CTL_ADD, doorbell, &ring) == 0, "epoll_ctl: errno \(errno)")
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
        closing.store(true, ordering: .sequentiallyConsistent)
        ring()
        queue.sync { source?.cancel() }
    }

    /// Runs `work` on the queue, soon, after the work handed over before it: a linger in
    /// progress ends for it. The one way code outside this type puts work on the queue (a
    /// timer's handler aside).
    func execute(_ work: @escaping @Sendable () -> Void) {
        // In the inbox before the check, and `drain` sets `lingering` before it looks at the inbox
        // (the lock orders both): either `drain` sees this work and does not wait, or this sees
        // the linger and rings.
        let queueBlock = inbox.withLock { inbox in
            inbox.work.append(work)
            guard !inbox.blockQueued else { return false }
            inbox.blockQueued = true
            return true
        }
        // A block runs the inbox even if no drain ever comes (a drain that ran it first leaves the
        // block nothing to do); one is queued at a time.
        if queueBlock { queue.async { [self] in runInbox(asItsBlock: true) } }
        if lingering.load(ordering: .sequentiallyConsistent) { ring() }
    }

    /// Runs what `execute` handed over until now, in order. The inbox's block says so when it
    /// starts, so that work handed over from then on queues another.
    private func runInbox(asItsBlock: Bool = false) {
        dispatchPrecondition(condition: .onQueue(queue))
        let work = inbox.withLock { inbox in
            if asItsBlock { inbox.blockQueued = false }
            defer { inbox.work.removeAll() }
            return inbox.work
        }
        for item in work { item() }
    }

    private var inboxIsEmpty: Bool { inbox.withLock { $0.work.isEmpty } }

    private func ring() {
        _ = eventfd_write(doorbell, 1)
    }

    deinit {
        source?.cancel()
        // Here, not with the epoll set: `ring` may be called as long as the loop exists.
        Glibc.close(doorbell)
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
        // else would come back for it: epoll tells of new bytes only. A block of its own, not the
        // inbox: a drain runs the inbox, and must never run inside it.
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

    /// Handles what is ready and what `execute` handed over, a bounded number of rounds,
    /// lingering between them; if more is left, the source fires again (the epoll set stays
    /// readable), the inbox's block runs it, or, for connections to read again, a turn is queued.
    /// Returns early only for `close`, or when epoll fails (see `wait`).
    private func drain() {
        guard !closing.load(ordering: .sequentiallyConsistent) else { return }
        draining = true
        defer { draining = false }
        var served = false
        for _ in 0..<64 {
            let ready = wait(mayLinger: served)
            let retries = again
            again.removeAll(keepingCapacity: true)
            guard ready > 0 || !retries.isEmpty || !inboxIsEmpty else { break }
            for index in 0..<Int(max(0, ready)) {
                let event = events[index]
                if event.data.u64 == Self.doorbellToken {
                    var count: eventfd_t = 0
                    _ = eventfd_read(doorbell, &count)
                    continue
                }
                guard let handlers = registered[event.data.u64]?.handlers else { continue }
                if event.events & EPOLLOUT.rawValue != 0 { handlers.writable() }
                if event.events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
                    registered[event.data.u64]?.handlers.readable(event.events & (EPOLLRDHUP.rawValue | EPOLLHUP.rawValue) != 0)
                }
            }
            for token in retries { registered[token]?.handlers.readable(false) }
            runInbox()
            if closing.load(ordering: .sequentiallyConsistent) { break }
            served = true
        }
        if !again.isEmpty { queue.async { [self] in drain() } }
    }

    /// What is ready now or, when it `mayLinger` and nothing else waits, within `linger`.
    private func wait(mayLinger: Bool) -> Int32 {
        events.withUnsafeMutableBufferPointer { events in
            if mayLinger, again.isEmpty {
                lingering.store(true, ordering: .sequentiallyConsistent)
                defer { lingering.store(false, ordering: .sequentiallyConsistent) }
                if inboxIsEmpty {
                    var timeout = linger
                    // -1 (EINTR; ENOSYS before Linux 5.11) reads as nothing ready: the drain
                    // ends, and the source fires again for whatever comes.
                    return epoll_pwait2(epoll, events.baseAddress, Int32(events.count), &timeout, nil)
                }
            }
            return epoll_wait(epoll, events.baseAddress, Int32(events.count), 0)
        }
    }
}
