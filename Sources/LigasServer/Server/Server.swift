import Dispatch
import Glibc
import LigasProtocol
import Logging
import Synchronization

/// Accepts connections on a listening Unix socket with a Dispatch read source, and keeps the
/// registry and counters that limits, `status`, shutdown and idle exit need.
///
/// No thread per connection: every connection lives on the event loop (`EventLoop`: one epoll set,
/// one Dispatch read source, one serial queue). The server's own state lives on `queue`, except
/// the counters: they sit behind a lock, so that counting a request and answering `status` never
/// wait for `queue`. (A `status` that did `queue.sync` from a connection's queue could, with
/// hundreds of connections asking at once, take every Dispatch worker thread and deadlock the
/// daemon.)
public final class Server: @unchecked Sendable {
    private let listener: ListeningSocket
    private let limits: ServerLimits
    private let handler: any RequestHandler
    private let logger: Logger
    private let logTags: ServerLogTags
    private let requestLog: any RequestLog
    /// Where the server's queues run: Dispatch's global queue, which keeps about as many threads
    /// as there are cores. A queue with no target would go to the overcommit pool instead, which
    /// may start a thread per busy queue: hundreds under a thousand connections, and a daemon
    /// that one blocking call can then hang.
    private static let target = DispatchQueue.global()
    /// The registry and accepting; connections live on `loop` (a queue of its own, so that a
    /// busy loop never holds up accepting, `status` or shutdown).
    private let queue = DispatchQueue(label: "ligasd.server", target: Server.target)
    private let loop: EventLoop

    private var acceptSource: (any DispatchSourceRead)?
    private var connections: [UInt64: Connection] = [:]
    private var connectionsPerUID: [UInt32: Int] = [:]
    private var nextConnectionID: UInt64 = 1
    private let stats = Mutex(ServerStatistics())
    private let stopping = Atomic(false)
    private var accepting = false
    /// Set once Dispatch has let go of the listening socket (the accept source's cancel handler
    /// ran); only then may it be closed.
    private var acceptSourceGone = false
    private var acceptSourceWaiters: [CheckedContinuation<Void, Never>] = []
    /// Whoever waits for the last connection to close (`waitUntilNoConnections`), by number.
    private var idleWaiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    private var nextIdleWaiter: UInt64 = 0
    private var idleTimer: (any DispatchSourceTimer)?
    private var onIdle: (@Sendable () -> Void)?
    private var idleAfter: Duration?
    private var whenLastClosed: (@Sendable () -> Void)?

    /// `logTags`: metadata for the server's notable log entries (ligasd: its journal MESSAGE_IDs).
    /// `requestLog`: where each request's entry goes; by default through `logger`.
    public init(
        listener: ListeningSocket, limits: ServerLimits = ServerLimits(), handler: any RequestHandler, logger: Logger,
        logTags: ServerLogTags = ServerLogTags(), requestLog: (any RequestLog)? = nil
    ) {
        self.listener = listener
        self.limits = limits
        self.handler = handler
        self.logger = logger
        self.logTags = logTags
        self.requestLog = requestLog ?? LoggerRequestLog(logger: logger, tags: logTags)
        loop = EventLoop(label: "ligasd.connections", target: Server.target, linger: limits.linger)
    }

    /// Starts accepting. With `idleExit`, `onIdle` runs once the server has had no connection and
    /// nothing in flight for that long; by then it has already stopped accepting, so no
    /// connection can be accepted and then dropped. `whenLastClosed` runs, on the server's queue
    /// (so it must not block), each time the last open connection closes, except during shutdown.
    public func start(
        idleExit: Duration? = nil, onIdle: (@Sendable () -> Void)? = nil, whenLastClosed: (@Sendable () -> Void)? = nil
    ) {
        queue.sync {
            self.idleAfter = idleExit
            self.onIdle = onIdle
            self.whenLastClosed = whenLastClosed
            let source = DispatchSource.makeReadSource(fileDescriptor: listener.fd, queue: queue)
            source.setEventHandler { [unowned self] in acceptPending() }
            source.setCancelHandler { [self] in acceptSourceCancelled() }
            acceptSource = source
            accepting = true
            source.resume()
            scheduleIdleExitIfIdle()
        }
    }

    /// The live counters (safe from any thread).
    public func statistics() -> ServerStatistics {
        stats.withLock { $0 }
    }

    /// Stops accepting new connections. The listening socket itself stays open: under socket
    /// activation systemd owns it, and queued connections wait there for the next instance.
    public func stopAccepting() {
        queue.sync { stopAcceptingOnQueue() }
    }

    /// Graceful stop: no new connections or requests, in-flight requests get up to `grace` to
    /// finish, then whatever is left is closed. Returns when every connection is gone.
    public func shutdown(grace: Duration) async {
        stopTakingRequests()
        if await !waitUntilNoConnections(within: grace) {
            let open = queue.sync { Array(connections.values) }
            logger.notice("shutdown grace over; cutting off what is still in flight", metadata: [
                "connections": "\(open.count)", "in-flight": "\(statistics().inFlightRequests)", "grace": "\(grace)",
            ])
            open.forEach { $0.forceClose(grace: grace) }
            _ = await waitUntilNoConnections()
        }
        loop.close()
        requestLog.flush()
        if listener.ownedPath != nil {
            // Closing while Dispatch still watches the descriptor would let a socket opened
            // meanwhile reuse its number and inherit the stale registration: that socket's read
            // source would then never fire.
            await waitUntilAcceptSourceGone()
            listener.close()
        }
    }

    private func acceptSourceCancelled() {
        dispatchPrecondition(condition: .onQueue(queue))
        acceptSourceGone = true
        acceptSourceWaiters.forEach { $0.resume() }
        acceptSourceWaiters.removeAll()
    }

    private func waitUntilAcceptSourceGone() async {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                if acceptSourceGone || acceptSource == nil { continuation.resume() } else { acceptSourceWaiters.append(continuation) }
            }
        }
    }

    /// The first step of `shutdown`, returning at once: no new connections, and every connection
    /// answers what its client has already sent, and anything sent from now on, `shuttingDown`,
    /// and closes once its requests in flight are done.
    public func stopTakingRequests() {
        // Seen by every connection at once, before each is told: a request read from now on, even
        // by a read that was under way, is answered `shuttingDown`.
        stopping.store(true, ordering: .relaxed)
        let open: [Connection] = queue.sync {
            stopAcceptingOnQueue()
            return Array(connections.values)
        }
        open.forEach { $0.refuseNewRequests() }
    }

    /// Whether every connection closed, at the latest `within` (nil: however long it takes). A
    /// timer on the queue, not a task racing a sleep: a task group would wait for the waiting
    /// child, which nothing cancels, and the grace would end only when the drain did (a remote
    /// fetch that never ends held ligasd for ever).
    private func waitUntilNoConnections(within grace: Duration? = nil) async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                if connections.isEmpty { return continuation.resume(returning: true) }
                nextIdleWaiter += 1
                let waiter = nextIdleWaiter
                idleWaiters[waiter] = continuation
                guard let grace else { return }
                // Weak: a drain that ends sooner must not keep the server for the rest of the grace.
                queue.asyncAfter(deadline: .now() + grace.dispatchInterval) { [weak self] in
                    self?.idleWaiters.removeValue(forKey: waiter)?.resume(returning: false)
                }
            }
        }
    }

    private func stopAcceptingOnQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard accepting else { return }
        accepting = false
        acceptSource?.cancel()
        idleTimer?.cancel()
    }

    // MARK: - Accepting

    private func acceptPending() {
        dispatchPrecondition(condition: .onQueue(queue))
        for _ in 0..<64 where accepting {
            let fd = accept(listener.fd, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK {
                    logger.warning("accept failed", metadata: ["errno": "\(errno)"])
                }
                return
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = try? UnixSocket.setNonBlocking(fd)
            let peer = try? PeerCredentials(ofSocket: fd)
            if let cap = capReached(by: peer) {
                refuse(fd, cap)
                continue
            }
            register(fd, peer: peer)
        }
    }

    /// The connection cap a newcomer would exceed, if any. A peer without credentials (never
    /// seen on a Unix socket) counts only against the global cap.
    private func capReached(by peer: PeerCredentials?) -> (cap: ErrorBody.ConnectionCap, max: Int)? {
        dispatchPrecondition(condition: .onQueue(queue))
        if connections.count >= limits.maxConnections { return (.connections, limits.maxConnections) }
        if let uid = peer?.uid, connectionsPerUID[uid, default: 0] >= limits.maxConnectionsPerUID {
            return (.connectionsPerUID, limits.maxConnectionsPerUID)
        }
        return nil
    }

    private func register(_ fd: Int32, peer: PeerCredentials?) {
        dispatchPrecondition(condition: .onQueue(queue))
        idleTimer?.cancel()
        let connection = Connection(
            id: nextConnectionID, fd: fd, peer: peer, limits: limits, handler: handler,
            events: ConnectionEvents(
                closed: { [weak self] connection, cancelled in self?.connectionClosed(connection, cancelled: cancelled) },
                requestStarted: { [weak self] in self?.countRequest(started: true) },
                requestFinished: { [weak self] in self?.countRequest(started: false) },
                requestAnsweredAtOnce: { [weak self] in self?.stats.withLock { $0.requestsServed += 1 } },
                streamsPaused: { [weak self] change in self?.countPausedStreams(change) },
                statistics: { [weak self] in self?.statistics() ?? ServerStatistics() },
                stopping: { [weak self] in self?.stopping.load(ordering: .relaxed) ?? true }),
            logger: logger, logTags: logTags, requestLog: requestLog, loop: loop)
        nextConnectionID += 1
        connections[connection.id] = connection
        if let uid = peer?.uid { connectionsPerUID[uid, default: 0] += 1 }
        stats.withLock { [count = connections.count] in
            $0.openConnections = count
            $0.connectionsAccepted += 1
        }
        if let peer = connection.peer {
            logger.debug("connection accepted", metadata: [
                "connection": "\(connection.id)", "client-pid": "\(peer.pid)", "client-uid": "\(peer.uid)",
            ])
        }
        connection.start()
    }

    /// Over a connection cap: a named error frame (request id 0) saying which cap, then close.
    private func refuse(_ fd: Int32, _ reached: (cap: ErrorBody.ConnectionCap, max: Int)) {
        stats.withLock { $0.connectionsRefused += 1 }
        var frame: [UInt8] = []
        try? FrameEncoder().appendError(id: 0, .tooManyConnections(reached.cap, max: reached.max), to: &frame)
        _ = frame.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(fd)
        logger.notice("connection refused: too many connections", metadata: [
            "cap": "\(reached.cap.rawValue)", "limit": "\(reached.max)",
        ])
    }

    private func countPausedStreams(_ change: Int) {
        stats.withLock { $0.pausedStreams += change }
    }

    private func countRequest(started: Bool) {
        stats.withLock { stats in
            if started {
                stats.inFlightRequests += 1
            } else {
                stats.inFlightRequests -= 1
                stats.requestsServed += 1
            }
        }
    }

    private func connectionClosed(_ connection: Connection, cancelled: Int) {
        queue.async { [self] in
            connections[connection.id] = nil
            if let uid = connection.peer?.uid {
                connectionsPerUID[uid, default: 1] -= 1
                if connectionsPerUID[uid] == 0 { connectionsPerUID[uid] = nil }
            }
            stats.withLock { [count = connections.count] in
                $0.openConnections = count
                // Ended with their connection: finished, like a cancelled request.
                $0.inFlightRequests -= cancelled
                $0.requestsServed += UInt64(cancelled)
            }
            if connections.isEmpty {
                // Not while shutting down: the process is about to end anyway. Before the
                // waiters: whoever waited for the last connection sees the hook done (or skipped).
                if !stopping.load(ordering: .relaxed) { whenLastClosed?() }
                idleWaiters.values.forEach { $0.resume(returning: true) }
                idleWaiters.removeAll()
            }
            scheduleIdleExitIfIdle()
        }
    }

    // MARK: - Idle exit

    private func scheduleIdleExitIfIdle() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard accepting, let idleAfter, let onIdle, connections.isEmpty else { return }
        idleTimer?.cancel()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + idleAfter.dispatchInterval)
        timer.setEventHandler { [unowned self] in
            // Runs on the accept queue: once accepting stops here, no accept can slip in between.
            guard accepting, connections.isEmpty else { return }
            stopAcceptingOnQueue()
            onIdle()
        }
        idleTimer = timer
        timer.resume()
    }
}
