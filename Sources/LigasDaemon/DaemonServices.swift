import Glibc
import LigasServer
import LigasSystemd
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Why ligasd stops: the first of a signal and idleness to happen.
final class StopReason: Sendable {
    enum Reason: CustomStringConvertible, Sendable {
        case signal(Int32)
        case idle

        var description: String {
            switch self {
            case .signal(SIGTERM): "SIGTERM"
            case .signal(SIGINT): "SIGINT"
            case .signal(let number): "signal \(number)"
            case .idle: "idle"
            }
        }
    }

    private let first = Mutex<Reason?>(nil)

    /// Keeps `reason` unless one was recorded already.
    func record(_ reason: Reason) {
        first.withLock { $0 = $0 ?? reason }
    }

    /// What was recorded; "graceful shutdown" when the group was stopped otherwise.
    var reason: String {
        first.withLock { $0?.description ?? "graceful shutdown" }
    }
}

/// The server: starts accepting, tells systemd it is ready; on graceful shutdown lets requests in
/// flight finish (within the grace period), then tells systemd it is stopping.
struct ServerService: Service {
    let server: Server
    let idleExit: Duration?
    let onIdle: @Sendable () -> Void
    let whenLastClosed: @Sendable () -> Void
    let shutdownGrace: Duration
    let stop: StopReason
    let notifier: SystemdNotifier
    let logger: Logger
    let started: Logger.Metadata
    let readyStatus: String

    func run() async throws {
        server.start(idleExit: idleExit, onIdle: onIdle, whenLastClosed: whenLastClosed)
        try? notifier.ready(status: readyStatus)
        logger.notice("ligasd started", metadata: LigasMessageID.daemonStarted.metadata.merging(started) { $1 })

        // Cancellation (not expected: the group is only ever shut down gracefully) stops it the same way.
        try? await gracefulShutdown()
        try? notifier.status("stopping: \(stop.reason)")
        await server.shutdown(grace: shutdownGrace)
        try? notifier.stopping()
    }
}

/// Ends the group (gracefully) once the server has had no connection for the idle-exit time. The
/// server has stopped accepting by then, so no connection is accepted and then dropped.
struct IdleExitService: Service {
    let idle: AsyncStream<Void>
    let stop: StopReason

    func run() async throws {
        guard await first(of: idle) != nil else { return }
        stop.record(.idle)
    }
}

/// Ends the group (gracefully) on SIGTERM or SIGINT. The server stops accepting at once: every
/// connection from then on waits in the socket's backlog for the next instance instead of
/// meeting one that is going away.
struct StopSignalService: Service {
    let signals: UnixSignalsSequence
    let server: Server
    let stop: StopReason

    func run() async throws {
        guard let signal = await first(of: signals) else { return }
        server.stopAccepting()
        stop.record(.signal(signal.rawValue))
    }
}

/// `WATCHDOG=1` every half of the interval systemd asked for (`WATCHDOG_USEC`), until the group
/// has shut down everything else.
struct WatchdogService: Service {
    let notifier: SystemdNotifier
    let period: Duration

    /// Nil when systemd asks for no watchdog (or asks another process, `WATCHDOG_PID`).
    init?(notifier: SystemdNotifier, logger: Logger) {
        guard let interval = notifier.watchdogInterval else { return nil }
        self.notifier = notifier
        self.period = max(interval / 2, .milliseconds(1))
        logger.debug("watchdog enabled", metadata: ["interval-us": "\(interval.wholeMicroseconds)"])
    }

    func run() async throws {
        try? await cancelWhenGracefulShutdown { [notifier, period] in
            while !Task.isCancelled {
                try? notifier.watchdog()
                try await Task.sleep(for: period)
            }
        }
    }
}

/// The first element of `sequence`; nil once the group shuts down gracefully or the task is
/// cancelled (the sequence's `next()` must end on cancellation), or when the sequence ends or fails.
///
/// Not `sequence.cancelOnGracefulShutdown()`: its merged and mapped sequences are generic types
/// that code the compiler did not specialise builds from their mangled names at the first `next()`,
/// and the runtime checks their requirements by scanning all ~7,500 protocol conformances in
/// ligasd, once per type and protocol. With the two others on the start path
/// (`DaemonConfiguration.sourceURLs`, `SQLiteCacheStore.createDirectory`), such scans were 2.3 of
/// the 17.4 million instructions a start runs up to its first reply (callgrind).
private func first<S: AsyncSequence & Sendable>(of sequence: S) async -> S.Element? where S.Element: Sendable {
    await cancelWhenGracefulShutdown {
        var iterator = sequence.makeAsyncIterator()
        return try? await iterator.next()
    }
}
