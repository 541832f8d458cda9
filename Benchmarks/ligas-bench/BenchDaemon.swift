import Foundation
import Glibc
import LigasProtocol
import LigasTestSupport

/// A real ligasd for the benchmark, started the way systemd starts it: under
/// `systemd-socket-activate`, which binds the socket and, at the first connection, execs ligasd
/// with it (same PID).
final class BenchDaemon: Sendable {
    let process: SpawnedProcess
    let socketPath: String
    /// Where its log goes: `journal` (ligasd's default, and what users run) unless
    /// `LIGASD_LOG_TARGET` says otherwise.
    let logTarget: String
    static let defaultLogTarget = ProcessInfo.processInfo.environment["LIGASD_LOG_TARGET"] ?? "journal"
    /// When `systemd-socket-activate` was spawned (the cold start prints its figure from here too).
    let spawnedAt: ContinuousClock.Instant

    var pid: Int32 { process.pid }

    /// Starts ligasd in `directory` with `remote` as its data source and a fresh cache there.
    init(ligasd: String, remote: String, directory: URL, name: String, environment extra: [String: String] = [:]) throws {
        socketPath = directory.appendingPathComponent("\(name).sock").path
        unlink(socketPath)
        // systemd-socket-activate passes on only what --setenv names, as systemd would.
        var settings = ProcessInfo.processInfo.environment.filter { $0.key.hasPrefix("LIGASD_") }
        settings["LIGASD_REMOTE"] = remote
        settings["LIGASD_CACHE"] = directory.appendingPathComponent("\(name).sqlite").path
        settings["LIGASD_IDLE_EXIT"] = "0"
        settings["LIGASD_MAX_CONNECTIONS"] = "1024"
        settings["LIGASD_MAX_CONNECTIONS_PER_UID"] = "1024"  // every bench client is the same user
        settings["LIGASD_LOG_TARGET"] = Self.defaultLogTarget
        settings.merge(extra) { $1 }
        logTarget = settings["LIGASD_LOG_TARGET"] ?? "journal"
        spawnedAt = .now
        process = try Spawn.start(
            "/usr/bin/systemd-socket-activate",
            ["-l", socketPath, "--fdname=ligasd"] + settings.sorted { $0.key < $1.key }.map { "--setenv=\($0.key)=\($0.value)" } + [ligasd],
            environment: ChildEnvironment.inherited(), output: directory.appendingPathComponent("\(name).log"))
    }

    /// Connects (retrying while the socket is not listening yet) and pings; returns the client.
    func firstReply(timeout: Duration = .seconds(20)) throws -> BlockingClient {
        try BenchDaemon.firstReply(socketPath: socketPath, timeout: timeout) { process.hasExited }
    }

    static func firstReply(socketPath: String, timeout: Duration, gaveUp: () -> Bool = { false }) throws -> BlockingClient {
        let deadline = ContinuousClock.now + timeout
        while true {
            do {
                let client = try BlockingClient(socketPath: socketPath)
                _ = try client.call(Call(Methods.Ping.self))
                return client
            } catch {
                guard ContinuousClock.now < deadline, !gaveUp() else { throw error }
                usleep(200)
            }
        }
    }

    func stop() async {
        await process.terminate()
    }
}
