import ArgumentParser
import FoundationEssentials
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
    @OptionGroup var settings: SettingFlags

    func run() async throws {
        MallocTuning.apply()
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.resolve(commandLine: settings.values, configFile: config)
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
