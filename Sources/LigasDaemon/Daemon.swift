import Dispatch
import Foundation
import Glibc
import LigasCacheStore
import LigasComposition
import LigasProtocol
import LigasRemote
import LigasServer
import LigasSystemd
import Logging

/// ligasd's composition root and lifecycle: open the cache, compose the engine, validate the
/// cache, take or bind the socket, serve, tell systemd, and stop cleanly on SIGTERM/SIGINT or
/// after being idle (when socket-activated).
public enum Daemon {
    public static let version = ReleaseVersion.current

    /// Runs until stopped; returns the process exit status.
    public static func run(_ configuration: DaemonConfiguration, logger: Logger) async throws -> Int32 {
        let notifier = SystemdNotifier()
        let started = ContinuousClock.now

        // Everything that can refuse to start comes before the HTTP client, which must be shut down.
        let (listener, activated) = try listeningSocket(configuration)
        let store: SQLiteCacheStore
        do {
            store = try CacheStoreOpening.open(
                fileURL: configuration.cacheFile, imageCapacityBytes: configuration.imageCacheBytes, logger: logger)
        } catch {
            listener.close()
            throw error
        }
        let http = AsyncHTTPClientAdapter()
        let engine = LigasEngine.compose(
            configuration: configuration.engine, feedStore: store, imageStore: store,
            httpClient: SchemeRoutingHTTPClient(http: http), logger: logger,
            remoteFallbackMetadata: LigasMessageID.remoteFailedWithFallback.metadata)
        await validateCache(engine, logger: logger)

        let server = Server(
            listener: listener, limits: configuration.limits,
            handler: EngineRequestHandler(engine: engine, counters: DaemonCounters(), version: version, startedAt: started),
            logger: logger,
            logTags: ServerLogTags(
                requestServed: LigasMessageID.requestServed.logTag, imageStreamed: LigasMessageID.imageStreamed.logTag,
                clientProtocolError: LigasMessageID.clientProtocolError.logTag))

        let stop = StopSignal()
        server.start(idleExit: activated ? configuration.idleExit : nil) { stop.fire(.idle) }
        // Stop accepting in the signal handler itself: every connection from then on waits in the
        // socket's backlog for the next instance instead of meeting one that is going away.
        let signals = [SIGTERM, SIGINT].map { number in
            watch(number) {
                server.stopAccepting()
                stop.fire(.signal($0))
            }
        }
        let watchdog = startWatchdog(notifier, logger: logger)

        try? notifier.ready(status: "serving on \(activated ? "the activated socket" : configuration.socketPath ?? "?")")
        logger.notice("ligasd started", metadata: LigasMessageID.daemonStarted.metadata.merging([
            "version": "\(version)", "socket-activated": "\(activated)", "remote": "\(configuration.remote.absoluteString)",
            "cache": "\(configuration.cacheFile.path)",
        ]) { $1 })

        let reason = await stop.wait()
        try? notifier.status("stopping: \(reason)")
        await server.shutdown(grace: configuration.shutdownGrace)
        try? notifier.stopping()
        signals.forEach { $0.cancel() }
        watchdog?.cancel()
        try? await http.shutdown()
        logger.notice("ligasd stopped", metadata: LigasMessageID.daemonStopped.metadata.merging([
            "reason": "\(reason)", "served": "\(server.statistics().requestsServed)",
        ]) { $1 })
        return 0
    }

    private static func validateCache(_ engine: LigasEngine, logger: Logger) async {
        do {
            let report = try await engine.validateCache()
            logger.info("cache validated", metadata: LigasMessageID.cacheValidated.metadata.merging([
                "deleted": "\(report.deletedCount)", "expired-feeds": "\(report.expiredFeeds.count)",
                "undecodable-feeds": "\(report.undecodableFeeds.count)", "expired-images": "\(report.expiredImages)", "outdated-leagues": "\(report.outdatedLeagues)",
            ]) { $1 })
        } catch {
            logger.error("cache validation failed", metadata: LigasMessageID.cacheValidated.metadata.merging(["error": "\(error)"]) { $1 })
        }
    }

    /// The socket systemd passed (socket activation), else `--socket PATH`.
    static func listeningSocket(_ configuration: DaemonConfiguration) throws -> (ListeningSocket, activated: Bool) {
        if let activated = try SocketActivation.listeningSocket() {
            return (try ListeningSocket.adopt(fd: activated.fileDescriptor), true)
        }
        guard let path = configuration.socketPath else { throw DaemonError.noSocket }
        return (try ListeningSocket.bind(path: path, mode: configuration.socketMode), false)
    }

    private static func watch(_ signalNumber: Int32, _ handler: @escaping @Sendable (Int32) -> Void) -> any DispatchSourceSignal {
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler { handler(signalNumber) }
        source.resume()
        return source
    }

    private static func startWatchdog(_ notifier: SystemdNotifier, logger: Logger) -> (any DispatchSourceTimer)? {
        guard let interval = notifier.watchdogInterval else { return nil }
        let period = interval / 2
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let nanoseconds = Int(period.components.seconds) * 1_000_000_000 + Int(period.components.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now(), repeating: .nanoseconds(max(nanoseconds, 1_000_000)))
        timer.setEventHandler { try? notifier.watchdog() }
        timer.resume()
        logger.debug("watchdog enabled", metadata: ["interval-us": "\(nanoseconds * 2 / 1000)"])
        return timer
    }
}

public enum DaemonError: Error, CustomStringConvertible {
    case noSocket

    public var description: String {
        "no socket: start ligasd through its systemd socket unit, or pass --socket PATH"
    }
}

extension LigasMessageID {
    /// The id as the server's log tag (`MESSAGE_ID=…`), built once.
    var logTag: ServerLogTags.Tag {
        ServerLogTags.Tag(key: JournalFieldName.messageID, value: .string(hex))
    }
}

/// Resolves once, with the first reason to stop (a signal, or idleness).
final class StopSignal: @unchecked Sendable {
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

    private let lock = NSLock()
    private var reason: Reason?
    private var waiter: CheckedContinuation<Reason, Never>?

    func fire(_ reason: Reason) {
        lock.lock()
        guard self.reason == nil else { return lock.unlock() }
        self.reason = reason
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume(returning: reason)
    }

    func wait() async -> Reason {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let reason {
                lock.unlock()
                continuation.resume(returning: reason)
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }
}
