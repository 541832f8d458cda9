import Foundation
import Glibc
import LigasClient
import LigasTestSupport
import Testing

/// The real `ligasd` binary (and `ligas-client`), as built next to the test bundle.
enum Binaries {
    static var directory: URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug").standardized,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("ligasd").path) } ?? candidates[0]
    }

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

/// A child process with its output captured, stopped when the test is done. Started with
/// `Spawn`, as every child of the tests, with stdin /dev/null; its exit status is minus the
/// signal's number when a signal ended it.
final class ChildProcess: @unchecked Sendable {
    let process: SpawnedProcess
    let executable: URL
    /// stderr goes to a file, so a chatty child can never block on a full pipe.
    let errorLog: URL
    /// Whether `errorLog` is a temporary file of this value's own, removed with it (one named by
    /// the caller is the caller's).
    private let ownsErrorLog: Bool
    /// stdout is a pipe (a client writes an image there only when it is not a terminal).
    private let standardOutput: FileHandle

    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], errorLog: URL? = nil) throws {
        self.executable = executable
        self.errorLog = errorLog ?? FileManager.default.temporaryDirectory.appendingPathComponent("ligas-child-\(UUID().uuidString).log")
        ownsErrorLog = errorLog == nil
        let ends = try Spawn.pipe()
        standardOutput = FileHandle(fileDescriptor: ends.read, closeOnDealloc: true)
        defer { close(ends.write) }  // the child's end: once it has its copy, only it may hold one
        process = try Spawn.start(
            executable.path, arguments, environment: ChildEnvironment.inherited(overrides: environment),
            outputDescriptor: ends.write, errors: self.errorLog)
    }

    deinit {
        if ownsErrorLog { try? FileManager.default.removeItem(at: errorLog) }
    }

    var pid: Int32 { process.pid }

    var isRunning: Bool { !process.hasExited }

    func signal(_ number: Int32) { kill(process.pid, number) }

    /// Waits (bounded) for the process to exit; returns its status.
    func waitForExit(timeout: Duration = .seconds(20)) async throws -> Int32 {
        do {
            try await poll("\(executable.lastPathComponent) to exit", timeout: timeout, every: .milliseconds(10)) {
                process.hasExited ? () : nil
            }
        } catch {
            // Whether the child is really still there, and where its threads wait, for whoever
            // reads the failure (a hung exit, or a child that ended unnoticed).
            Issue.record("still running after \(timeout): \(Self.kernelState(of: process.pid)); stderr: \(errorOutput)")
            throw error
        }
        return await process.waitForExit()
    }

    /// The process's state and each thread's wait channel, from /proc.
    static func kernelState(of pid: Int32) -> String {
        let proc = "/proc/\(pid)"
        guard let status = try? String(contentsOfFile: "\(proc)/status", encoding: .utf8) else { return "pid \(pid) is gone" }
        let state = status.split(separator: "\n").first { $0.hasPrefix("State:") } ?? "State: ?"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "\(proc)/task")) ?? []
        let channels = tasks.sorted().map { task in
            let wchan = (try? String(contentsOfFile: "\(proc)/task/\(task)/wchan", encoding: .utf8)) ?? "?"
            return "\(task):\(wchan)"
        }
        return "pid \(pid) \(state), threads \(channels.joined(separator: " "))"
    }

    /// Everything written to stderr so far.
    var errorOutput: String {
        (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
    }

    /// All of stdout (waits for the child to close it).
    var output: Data { standardOutput.readDataToEndOfFile() }

    func stop() async {
        if isRunning {
            signal(SIGKILL)
            _ = try? await waitForExit()
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `ligasd --socket PATH` against a remote, with its cache in a temporary directory.
final class RunningDaemon: @unchecked Sendable {
    let directory: TemporaryDirectory
    let child: ChildProcess
    var socketPath: String { directory.url.appendingPathComponent("ligasd.sock").path }
    var cachePath: String { directory.url.appendingPathComponent("cache.sqlite").path }

    /// Logs to stderr (the file `errorLog`) unless `extra` names another `--log-target`. The
    /// remote-first budget is lifted unless `extra` sets it: a test that expects the remote's
    /// matches must not get the cache's because a loaded machine took longer than 1.5 s.
    init(remote: URL, directory: TemporaryDirectory = TemporaryDirectory(), extra: [String] = [], environment: [String: String] = [:]) async throws {
        self.directory = directory
        let socket = directory.url.appendingPathComponent("ligasd.sock").path
        let logTarget = extra.contains("--log-target") ? [] : ["--log-target", "stderr"]
        let budget = extra.contains("--remote-first-budget") ? [] : ["--remote-first-budget", "600"]
        child = try ChildProcess(Binaries.url("ligasd"), [
            "--socket", socket, "--remote", remote.absoluteString,
            "--cache", directory.url.appendingPathComponent("cache.sqlite").path,
        ] + logTarget + budget + extra, environment: environment, errorLog: directory.url.appendingPathComponent("ligasd.log"))
        try await Self.waitUntilServing(socket, child: child)
    }

    var pid: Int32 { child.pid }

    static func waitUntilServing(_ path: String, child: ChildProcess) async throws {
        let client = try await poll("ligasd serving on \(path)", timeout: .seconds(20), every: .milliseconds(10)) {
            if let client = try? await LigasClient.connect(socketPath: path) { return client }
            guard child.isRunning else { throw TestFailure("ligasd exited: \(child.errorOutput)") }
            return nil
        }
        client.close()
    }

    func client() async throws -> LigasClient {
        try await LigasClient.connect(socketPath: socketPath)
    }

    func stop() async -> Int32? {
        child.signal(SIGTERM)
        let status = try? await child.waitForExit()
        await child.stop()
        return status
    }
}
