import Dispatch
import Foundation
import Glibc
import LigasTestSupport
import Synchronization

/// Every process this run starts, so that it can be killed whatever happens: at the end of the
/// scenario, on SIGINT/SIGTERM (Ctrl-C, `timeout`), and — through the pid file named by
/// `LIGAS_STRESS_PIDS` — by scripts/stress if this process itself dies.
enum Children {
    private static let running = Mutex<[pid_t: SpawnedProcess]>([:])
    private static let pidFile = ProcessInfo.processInfo.environment["LIGAS_STRESS_PIDS"]
    /// Set once, by main, before any scenario runs; kept only so the sources stay alive.
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []

    static func start(_ path: String, _ arguments: [String], environment: [String: String], output: URL?) throws -> SpawnedProcess {
        let process = try Spawn.start(path, arguments, environment: ChildEnvironment.inherited(overrides: environment), output: output)
        adopt(process)
        return process
    }

    /// Records a process started elsewhere (the user manager's, see `UserManager.forScenario`).
    @Sendable static func adopt(_ process: SpawnedProcess) {
        running.withLock { running in
            running[process.pid] = process
            if let pidFile, let handle = FileHandle(forWritingAtPath: pidFile) ?? createPidFile(pidFile) {
                handle.seekToEndOfFile()
                handle.write(Data("\(process.pid)\n".utf8))
                try? handle.close()
            }
        }
    }

    private static func createPidFile(_ path: String) -> FileHandle? {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }

    /// Runs a short command to completion (bounded); returns its exit status and output.
    static func run(_ path: String, _ arguments: [String], timeout: Duration = .seconds(60)) async throws -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("ligas-stress-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = try start(path, arguments, environment: [:], output: output)
        let status = try await within(timeout, "\(path) \(arguments.joined(separator: " "))") { await process.waitForExit() }
        forget(process)
        return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    @Sendable static func forget(_ process: SpawnedProcess) {
        _ = running.withLock { $0.removeValue(forKey: process.pid) }
    }

    /// SIGTERM to every child still running, then SIGKILL to those still there after a few
    /// seconds: a `systemd --user` manager stops its units (ligasd) on SIGTERM, which SIGKILL
    /// would orphan.
    static func killAll() {
        let children = running.withLock { state in
            defer { state.removeAll() }
            return Array(state.values)
        }
        for child in children where !child.hasExited { kill(child.pid, SIGTERM) }
        for _ in 0..<100 where children.contains(where: { !$0.hasExited }) { usleep(50_000) }
        for child in children where !child.hasExited { kill(child.pid, SIGKILL) }
    }

    /// On SIGINT or SIGTERM: kill the children and exit 130.
    static func exitOnSignals() {
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                Report.progress("interrupted (signal \(number)): stopping every process this run started")
                killAll()
                exit(130)
            }
            source.resume()
            return source
        }
        signalSources = sources
    }
}
