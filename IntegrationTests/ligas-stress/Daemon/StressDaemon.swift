import Foundation
import Glibc
import LigasClient
import LigasTestSupport

/// `ligasd --socket PATH` started by this run, logging to a file, with every other setting
/// passed as `LIGASD_*` environment variables.
final class StressDaemon: Sendable {
    let process: SpawnedProcess
    let socketPath: String
    let cachePath: String
    let log: URL

    var pid: Int32 { process.pid }
    var memory: ProcessMemory? { ProcessMemory(pid: pid) }

    private init(process: SpawnedProcess, socketPath: String, cachePath: String, log: URL) {
        self.process = process
        self.socketPath = socketPath
        self.cachePath = cachePath
        self.log = log
    }

    /// Starts ligasd and waits (bounded) until it answers a ping.
    static func start(
        _ options: Options, directory: URL, remote: String, settings: [String: String] = [:], logName: String = "ligasd.log"
    ) async throws -> StressDaemon {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("ligasd.sock").path
        let cache = directory.appendingPathComponent("cache.sqlite").path
        let log = directory.appendingPathComponent(logName)
        var environment = settings
        environment["LIGASD_LOG_TARGET"] = "stderr"
        let process = try Children.start(
            options.ligasd, ["--socket", socket, "--remote", remote, "--cache", cache], environment: environment, output: log)
        let daemon = StressDaemon(process: process, socketPath: socket, cachePath: cache, log: log)
        try await daemon.waitUntilServing()
        return daemon
    }

    func waitUntilServing(timeout: Duration = .seconds(30)) async throws {
        let path = socketPath
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard !process.hasExited else { throw DaemonExited(log: logTail) }
            if let client = try? await within(.seconds(5), "ping", { try await LigasClient.connect(socketPath: path, agent: "ligas-stress") }) {
                defer { client.close() }
                if (try? await within(.seconds(5), "ping", { try await client.ping() })) != nil { return }
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TimedOut(description: "ligasd never answered on \(path)")
    }

    func client() async throws -> LigasClient {
        let path = socketPath
        return try await within(.seconds(20), "connecting to ligasd") {
            try await LigasClient.connect(socketPath: path, agent: "ligas-stress")
        }
    }

    /// `kill -9`: no chance to finish anything.
    func kill9() async {
        kill(pid, SIGKILL)
        _ = await process.waitForExit()
        Children.forget(process)
    }

    /// SIGTERM (a graceful stop), then SIGKILL after `grace`; returns the exit status.
    @discardableResult
    func stop(grace: Duration = .seconds(20)) async -> Int32 {
        await process.terminate(grace: grace)
        Children.forget(process)
        return await process.waitForExit()
    }

    var logTail: String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(15).joined(separator: "\n")
    }

    struct DaemonExited: Error, CustomStringConvertible {
        let log: String
        var description: String { "ligasd exited; the end of its log:\n\(log)" }
    }
}

extension StressDaemon {
    /// Whether this ligasd found its cache file corrupt (or unusable) and started over.
    var cacheWasRecreated: Bool {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.contains("cache file was corrupt") || text.contains("cache file unusable")
    }
}
