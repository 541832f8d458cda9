import FoundationEssentials
import Glibc
import LigasComposition
import LigasProtocol
import LigasServer
import LigasSystemd
import Logging
import ServiceLifecycle
import UnixSignals

/// ligasd's lifecycle: take or bind the socket, open the engine (the composition root builds
/// it), validate the cache, give back the memory that took (`QuietMemoryRelease`, again whenever
/// the last client leaves), then run the services under one `ServiceGroup`, and stop cleanly on
/// SIGTERM/SIGINT or after being idle (when socket-activated).
///
/// The services, in start order (the group shuts them down in reverse):
/// - `WatchdogService`: `WATCHDOG=1` every half interval while systemd asks for it, until the end;
/// - `ServerService`: serves, says `READY=1`; on graceful shutdown drains and says `STOPPING=1`;
/// - `IdleExitService` (socket-activated only): ends the group once the server has been idle;
/// - `StopSignalService`: ends the group on SIGTERM or SIGINT.
public enum Daemon {
    public static let version = ReleaseVersion.current

    /// Runs until stopped; returns the process exit status.
    public static func run(_ configuration: DaemonConfiguration, logger: Logger) async throws -> Int32 {
        let notifier = SystemdNotifier()
        let started = ContinuousClock.now
        // Trapped before anything else: from here on SIGTERM and SIGINT stop ligasd gracefully.
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)

        // Everything that can refuse to start comes before the engine, whose HTTP client must be shut down.
        let (listener, activated) = try listeningSocket(configuration)
        let opened: OpenedEngine
        do {
            opened = try OpenedEngine.open(
                configuration: configuration.engine, cacheFile: configuration.cacheFile,
                imageCacheBytes: configuration.imageCacheBytes, logger: logger,
                remoteFallbackMetadata: LigasMessageID.remoteFailedWithFallback.metadata,
                quotaMetadata: LigasMessageID.requestBudget.metadata)
        } catch {
            listener.close()
            throw error
        }
        await validateCache(opened.engine, logger: logger)
        let memory = QuietMemoryRelease(opened)
        memory.releaseNow()

        let router = EngineMethods.router(
            engine: opened.engine, counters: DaemonCounters(), version: version, startedAt: started)
        precondition(router.unrouted.isEmpty, "no engine call answers \(router.unrouted)")
        let server = Server(
            listener: listener, limits: configuration.limits, handler: router, logger: logger, logTags: logTags,
            requestLog: requestLog(configuration, logger: logger))

        let stop = StopReason()
        let idleExit = activated ? configuration.idleExit : nil
        let (idle, idleContinuation) = AsyncStream<Void>.makeStream()
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let watchdog = WatchdogService(notifier: notifier, logger: logger) {
            services.append(.init(service: watchdog, serviceName: "watchdog"))
        }
        services.append(.init(service: ServerService(
            server: server, idleExit: idleExit, onIdle: { idleContinuation.yield() }, whenLastClosed: { memory.releaseSoon() },
            shutdownGrace: configuration.shutdownGrace,
            stop: stop, notifier: notifier, logger: logger,
            started: [
                "version": "\(version)", "socket-activated": "\(activated)", "source": "\(configuration.effectiveSource.rawValue)",
                "remote": "\(configuration.sourceURLs)",
                "cache": "\(configuration.cacheFile.path)",
            ],
            readyStatus: "serving on \(activated ? "the activated socket" : configuration.socketPath ?? "?")"),
            serviceName: "server"))
        if idleExit != nil {
            services.append(.init(
                service: IdleExitService(idle: idle, stop: stop), successTerminationBehavior: .gracefullyShutdownGroup,
                serviceName: "idle-exit"))
        }
        services.append(.init(
            service: StopSignalService(signals: signals, server: server, stop: stop), successTerminationBehavior: .gracefullyShutdownGroup,
            serviceName: "stop-signals"))

        // No gracefulShutdownSignals of the group's own: it does not tell which signal came, and
        // ligasd reports it (STATUS=stopping: SIGTERM, LIGAS_REASON); StopSignalService traps them.
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger))
        defer { idleContinuation.finish() }
        do {
            try await group.run()
        } catch {
            await opened.shutdown()
            throw error
        }
        await opened.shutdown()
        logger.notice("ligasd stopped", metadata: LigasMessageID.daemonStopped.metadata.merging([
            "reason": "\(stop.reason)", "served": "\(server.statistics().requestsServed)",
        ]) { $1 })
        return 0
    }

    private static let logTags = ServerLogTags(
        requestServed: LigasMessageID.requestServed.logTag, imageStreamed: LigasMessageID.imageStreamed.logTag,
        clientProtocolError: LigasMessageID.clientProtocolError.logTag)

    /// Each request's entry: straight to journald when that is where the log goes (the cheap
    /// path: see `JournalRequestLog`), else through `logger` like every other entry.
    private static func requestLog(_ configuration: DaemonConfiguration, logger: Logger) -> any RequestLog {
        guard configuration.logTarget.resolved() == .journal else { return LoggerRequestLog(logger: logger, tags: logTags) }
        let stderr = LogTarget.stderr.makeLogger(label: "ligasd", logLevel: configuration.logLevel)
        return JournalRequestLog(logLevel: configuration.logLevel, fallback: LoggerRequestLog(logger: stderr, tags: logTags))
    }

    private static func validateCache(_ engine: LigasEngine, logger: Logger) async {
        do {
            let report = try await engine.validateCache()
            logger.info("cache validated", metadata: LigasMessageID.cacheValidated.metadata.merging([
                "deleted": "\(report.deletedCount)", "expired-feeds": "\(report.expiredFeeds.count)",
                "undecodable-feeds": "\(report.undecodableFeeds.count)", "expired-images": "\(report.expiredImages)", "outdated-leagues": "\(report.outdatedLeagues)",
                "outdated-feeds": "\(report.outdatedFeeds.count)",
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
