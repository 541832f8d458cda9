import ArgumentParser
import FoundationEssentials
import Glibc
import LigasDaemon
import LigasSystemd
import Logging

/// ligasd's entry point. systemd starts it with no arguments (its settings come from the
/// environment and the config file), and then it skips ArgumentParser: building a command's
/// argument set reflects over every option with `Mirror`, whose protocol conformance lookups scan
/// the whole binary. That was ~40% of the CPU of ligasd's start-up thread, paid on every socket
/// activation (`perf record` over 20 cold starts). With arguments, ArgumentParser parses them as
/// usual, `--help` and `--version` included.
@main
enum LigasdMain {
    static func main() {
        // First, on the main thread: a thread's first allocation takes an arena of its own while
        // the limit allows, so a limit set later is too late for the threads already running.
        MallocTuning.apply()
        Task.detached {
            guard CommandLine.arguments.count > 1 else {
                do {
                    try await Ligasd.serve(commandLine: [:], configFile: nil)
                } catch let code as ExitCode {
                    exit(code.rawValue)  // the usual end; exit(withError:) would build the help text first
                } catch let error as ValidationError {
                    // No arguments were given, so the usage lines would only bury the message in the journal.
                    let line = "ligasd: \(error.message)\n"
                    _ = line.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
                    exit(ExitCode.validationFailure.rawValue)
                } catch {
                    Ligasd.exit(withError: error)
                }
            }
            await Ligasd.main()
            exit(0)  // not reached (ArgumentParser exits on every path); a return must not leave ligasd parked
        }
        MainThread.park()
    }
}

/// ligasd: serves Ecuadorian football data to local programs over a Unix socket.
/// Every option can also come from the environment or the config file (`LIGASD_*`).
struct Ligasd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ligasd",
        abstract: "Serve Ecuadorian football data to local programs over a Unix socket.",
        discussion: """
            Normally started by systemd socket activation (ligasd.socket). Without it, pass --socket.
            Every option has an environment and config-file form: LIGASD_SOCKET, LIGASD_REMOTE, ….
            The API key is read from $CREDENTIALS_DIRECTORY/api-key or LIGASD_API_KEY, never from a flag.
            Exit status: 0 stopped (SIGTERM, SIGINT or idle exit); 64 a setting it cannot take; 1 it could not start.
            """,
        version: Daemon.version)

    @Option(help: "Config file of LIGASD_*=value lines (env: LIGASD_CONFIG).")
    var config: String?
    @OptionGroup var settings: SettingFlags

    func run() async throws {
        try await Self.serve(commandLine: settings.values, configFile: config)
    }

    /// Resolves the settings (`commandLine` values by `LIGASD_*` name, over the environment and
    /// the config file), then serves until stopped. Never returns normally: it ends in `ExitCode`.
    static func serve(commandLine: [String: String], configFile: String?) async throws -> Never {
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.resolve(commandLine: commandLine, configFile: configFile)
        } catch let error as ConfigurationError {
            MisconfiguredRefusal.answerWaitingClients(error)
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
