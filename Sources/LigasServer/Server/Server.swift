import Dispatch
import Glibc
import LigasProtocol
import Logging
import Synchronization

/// Accepts connections on a listening Unix socket with a Dispatch read source, and keeps the
/// registry and counters that limits, `status`, shutdown and idle exit need.
///
/// No thread per connection: each connection is a pair of Dispatch sources on its own serial
/// queue (see `Connection`). The server's own state lives on `queue`, except the counters: they
/// sit behind a lock, so that counting a request and answering `status` never wait for `queue`.
/// (A `status` that did `queue.sync` from a connection's queue could, with hundreds of
/// connections asking at once, take every Dispatch worker thread and deadlock the daemon.)
public final class Server: @unchecked Sendable {
    private let listener: ListeningSocket
    private let limits: ServerLimits
    private let handler: any RequestHandler
    private let logger: Logger
    private let queue = DispatchQueue(label: "ligasd.server")

    private var acceptSource: (any DispatchSourceRead)?
    private var connections: [UInt64: Connection] = [:]
    private var nextConnectionID: UInt64 = 1
    private let stats = Mutex(ServerStatistics())
    private var accepting = false
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var idleTimer: (any DispatchSourceTimer)?
    private var onIdle: (@Sendable () -> Void)?
    private var idleAfter: Duration?

    public init(listener: ListeningSocket, limits: ServerLimits = ServerLimits(), handler: any RequestHandler, logger: Logger) {
        self.listener = listener
        self.limits = limits
        self.handler = handler
        self.logger = logger
    }

    /// Starts accepting. With `idleExit`, `onIdle` runs once the server has had no connection and
    /// nothing in flight for that long; by then it has already stopped accepting, so no
    /// connection can be accepted and then dropped.
    public func start(idleExit: Duration? = nil, onIdle: (@Sendable () -> Void)? = nil) {
        queue.sync {
            self.idleAfter = idleExit
            self.onIdle = onIdle
            let source = DispatchSource.makeReadSource(fileDescriptor: listener.fd, queue: queue)
            source.setEventHandler { [unowned self] in acceptPending() }
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
        let open: [Connection] = queue.sync {
            stopAcceptingOnQueue()
            return Array(connections.values)
        }
        open.forEach { $0.refuseNewRequests() }
        let drained = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.waitUntilNoConnections(); return true }
            group.addTask { try? await Task.sleep(for: grace); return false }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if !drained {
            queue.sync { Array(connections.values) }.forEach { $0.forceClose() }
            await waitUntilNoConnections()
        }
        if listener.ownedPath != nil { listener.close() }
    }

    private func waitUntilNoConnections() async {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                if connections.isEmpty { continuation.resume() } else { idleWaiters.append(continuation) }
            }
        }
    }

    private func stopAcceptingOnQueue() {
        guard accepting else { return }
        accepting = false
        acceptSource?.cancel()
        idleTimer?.cancel()
    }

    // MARK: - Accepting

    private func acceptPending() {
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
            guard connections.count < limits.maxConnections else {
                refuse(fd)
                continue
            }
            register(fd)
        }
    }

    private func register(_ fd: Int32) {
        idleTimer?.cancel()
        let connection = Connection(
            id: nextConnectionID, fd: fd, limits: limits, handler: handler,
            events: ConnectionEvents(
                closed: { [weak self] connection, cancelled in self?.connectionClosed(connection, cancelled: cancelled) },
                requestStarted: { [weak self] in self?.countRequest(started: true) },
                requestFinished: { [weak self] in self?.countRequest(started: false) },
                streamsPaused: { [weak self] change in self?.countPausedStreams(change) },
                statistics: { [weak self] in self?.statistics() ?? ServerStatistics() }),
            logger: logger)
        nextConnectionID += 1
        connections[connection.id] = connection
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

    /// Over the connection cap: a named error frame (request id 0), then close.
    private func refuse(_ fd: Int32) {
        stats.withLock { $0.connectionsRefused += 1 }
        var frame: [UInt8] = []
        try? FrameEncoder().appendError(
            id: 0, ErrorBody(code: .tooManyRequests, message: "too many connections (\(limits.maxConnections))"), to: &frame)
        _ = frame.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(fd)
        logger.notice("connection refused: too many connections", metadata: ["limit": "\(limits.maxConnections)"])
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
            stats.withLock { [count = connections.count] in
                $0.openConnections = count
                $0.inFlightRequests -= cancelled
            }
            if connections.isEmpty {
                idleWaiters.forEach { $0.resume() }
                idleWaiters.removeAll()
            }
            scheduleIdleExitIfIdle()
        }
    }

    // MARK: - Idle exit

    private func scheduleIdleExitIfIdle() {
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
