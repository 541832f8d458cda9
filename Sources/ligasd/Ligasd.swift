import ArgumentParser
import Foundation
import LigasDaemon
import LigasSystemd
import Logging

/// ligasd: serves Ecuadorian football data to local programs over a Unix socket.
/// Every option can also come from the environment or the config file (`LIGASD_*`).
@main
struct Ligasd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ligasd",
        abstract: "Serve Ecuadorian football data to local programs over a Unix socket.",
        discussion: """
            Normally started by systemd socket activation (ligasd.socket). Without it, pass --socket.
            Every option has an environment and config-file form: LIGASD_SOCKET, LIGASD_REMOTE, ….
            The API key is read from $CREDENTIALS_DIRECTORY/api-key or LIGASD_API_KEY, never from a flag.
            """,
        version: Daemon.version)

    @Option(help: "Config file of LIGASD_*=value lines (env: LIGASD_CONFIG).")
    var config: String?
    @Option(help: "Bind this socket path instead of using systemd's (env: LIGASD_SOCKET).")
    var socket: String?
    @Option(help: "Octal mode of a socket bound with --socket; default 0660 (env: LIGASD_SOCKET_MODE).")
    var socketMode: String?
    @Option(help: "Base URL of the ligas-rest source; default: the bundled sample data (env: LIGASD_REMOTE).")
    var remote: String?
    @Option(help: "Base URL of a seed-football-api source (env: LIGASD_SEED_REMOTE).")
    var seedRemote: String?
    @Option(help: "SQLite cache file (env: LIGASD_CACHE).")
    var cache: String?
    @Option(help: "Seconds cached data stays valid; default 604800, 7 days (env: LIGASD_MAX_CACHE_AGE).")
    var maxCacheAge: String?
    @Option(help: "Seconds matches wait for the remote before a fresh cache answers instead; default 1.5 (env: LIGASD_REMOTE_FIRST_BUDGET).")
    var remoteFirstBudget: String?
    @Option(help: "Total bytes of cached images; default 268435456 (env: LIGASD_IMAGE_CACHE_BYTES).")
    var imageCacheBytes: String?
    @Option(help: "Simultaneous connections; default 256 (env: LIGASD_MAX_CONNECTIONS).")
    var maxConnections: String?
    @Option(help: "Simultaneous connections of one user (uid); default 128 (env: LIGASD_MAX_CONNECTIONS_PER_UID).")
    var maxConnectionsPerUid: String?
    @Option(help: "Requests in flight per connection; default 32 (env: LIGASD_MAX_IN_FLIGHT).")
    var maxInFlight: String?
    @Option(help: "Largest frame accepted, in bytes; default 1048576 (env: LIGASD_MAX_FRAME_SIZE).")
    var maxFrameSize: String?
    @Option(help: "Seconds a client has to say hello; default 5 (env: LIGASD_HANDSHAKE_TIMEOUT).")
    var handshakeTimeout: String?
    @Option(help: "Seconds an idle connection is kept; default 300 (env: LIGASD_IDLE_CONNECTION_TIMEOUT).")
    var idleConnectionTimeout: String?
    @Option(help: "Unread bytes a connection may pile up; default 8388608 (env: LIGASD_MAX_OUTPUT_BYTES).")
    var maxOutputBytes: String?
    @Option(help: "When socket-activated, exit after this many idle seconds; 0 never; default 60 (env: LIGASD_IDLE_EXIT).")
    var idleExit: String?
    @Option(help: "Seconds in-flight requests get to finish on SIGTERM; default 10 (env: LIGASD_SHUTDOWN_GRACE).")
    var shutdownGrace: String?
    @Option(help: "auto, journal or stderr (env: LIGASD_LOG_TARGET).")
    var logTarget: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical (env: LIGASD_LOG_LEVEL).")
    var logLevel: String?

    func run() async throws {
        MallocTuning.apply()
        let overrides: [DaemonConfiguration.Key: String?] = [
            .socket: socket, .socketMode: socketMode, .remote: remote, .seedRemote: seedRemote, .cache: cache,
            .maxCacheAge: maxCacheAge, .remoteFirstBudget: remoteFirstBudget, .imageCacheBytes: imageCacheBytes,
            .maxConnections: maxConnections, .maxConnectionsPerUID: maxConnectionsPerUid, .maxInFlight: maxInFlight,
            .maxFrameSize: maxFrameSize, .handshakeTimeout: handshakeTimeout,
            .idleConnectionTimeout: idleConnectionTimeout, .maxOutputBytes: maxOutputBytes, .idleExit: idleExit,
            .shutdownGrace: shutdownGrace, .logTarget: logTarget, .logLevel: logLevel,
        ]
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.resolve(overrides: overrides.compactMapValues { $0 }, configFile: config)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        LoggingSystem.bootstrap(configuration.logTarget.handlerFactory(logLevel: configuration.logLevel), metadataProvider: nil)
        let logger = Logger(label: "ligasd")
        do {
            let status = try await Daemon.run(configuration, logger: logger)
            throw ExitCode(status)
        } catch let error as ExitCode {
            throw error
        } catch {
            logger.critical("ligasd cannot start", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
    }
}
