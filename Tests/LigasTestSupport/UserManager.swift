import Foundation
import Glibc

/// A real `systemd --user` manager running the project's user units from `systemd/user/` (with
/// `@bindir@` filled in), as `../shared/notes/systemd-in-tests.md` describes for machines where
/// systemd is not PID 1. The one harness for the end-to-end tests, the stress suite's `restart`
/// and `idle-exit` scenarios, the bench's cold start under `systemd --user`, and systemd's own
/// reading of an `EnvironmentFile=` (the config file's syntax).
///
/// A drop-in lifts systemd's start limit (these runs start ligasd far more often than real use),
/// serves `remote`, and appends every ligasd instance's stderr to `daemonLog`, before the extra
/// `[Service]` lines given (which win: `Environment=LIGASD_LOG_TARGET=journal` logs to journald).
public final class UserManager: @unchecked Sendable {
    /// Told of every process the manager harness starts (the manager, each systemctl) and of
    /// each systemctl's end: the stress suite records them, to kill them whatever happens.
    public struct ProcessTracking: Sendable {
        public let started: @Sendable (SpawnedProcess) -> Void
        public let ended: @Sendable (SpawnedProcess) -> Void

        public init(started: @escaping @Sendable (SpawnedProcess) -> Void, ended: @escaping @Sendable (SpawnedProcess) -> Void) {
            self.started = started
            self.ended = ended
        }

        public static let none = ProcessTracking(started: { _ in }, ended: { _ in })
    }

    private let temporaryDirectory: TemporaryDirectory?
    public let directory: URL
    private let tracking: ProcessTracking
    // Set by `launch` and `stop`, which run one after the other (never concurrently).
    private var manager: SpawnedProcess?
    public var runtimeDirectory: URL { directory.appendingPathComponent("runtime") }
    var configDirectory: URL { directory.appendingPathComponent("config") }
    public var socketPath: String { runtimeDirectory.appendingPathComponent("ligasd.sock").path }
    var unitDirectory: URL { configDirectory.appendingPathComponent("systemd/user") }
    /// Every ligasd instance's stderr, appended.
    public var daemonLog: URL { directory.appendingPathComponent("ligasd.log") }

    /// Starts the manager with the units for `binaryDirectory/ligasd`, and ligasd.socket.
    /// `directory` holds its files (a temporary one, removed with the manager, when nil).
    public init(
        binaryDirectory: URL, remote: String, serviceSettings: [String] = [], directory: URL? = nil,
        tracking: ProcessTracking = .none
    ) async throws {
        let temporary = directory == nil ? TemporaryDirectory() : nil
        temporaryDirectory = temporary
        self.directory = directory ?? temporary!.url
        self.tracking = tracking
        // The manager's sockets live there, and a Unix socket's path has room for 107 bytes: past
        // that, systemd --user exits at once, saying so only in its own log.
        let longest = runtimeDirectory.appendingPathComponent("systemd/private").path
        guard longest.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw ManagerFailure(description: "\(longest) is too long for a Unix socket: give the manager a shorter directory")
        }
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try installUnits(binaryDirectory: binaryDirectory, remote: remote, serviceSettings: serviceSettings)
        // Another process may create and remove the marker directory (see `launch`) at the same
        // moment: the manager then refuses to start. It is tried again a couple of times.
        var failures: [String] = []
        while true {
            do {
                try await launch()
                break
            } catch {
                await stop()
                failures.append("\(error)")
                guard failures.count < 3 else { throw ManagerFailure(description: failures.joined(separator: "; then: ")) }
            }
        }
        do {
            try await systemctl("daemon-reload")
            try await systemctl("start", "ligasd.socket")
        } catch {
            await stop()
            throw error
        }
    }

    /// The caller's environment, less what it holds for itself, plus the manager's directories.
    var environment: [String: String] {
        ChildEnvironment.inherited(overrides: [
            "XDG_RUNTIME_DIR": runtimeDirectory.path, "XDG_CONFIG_HOME": configDirectory.path, "HOME": directory.path,
        ])
    }

    private func installUnits(binaryDirectory: URL, remote: String, serviceSettings: [String]) throws {
        try FileManager.default.createDirectory(at: unitDirectory.appendingPathComponent("ligasd.service.d"), withIntermediateDirectories: true)
        try UnitTemplates.install(from: UnitTemplates.userDirectory, bindir: binaryDirectory, into: unitDirectory)
        _ = FileManager.default.createFile(atPath: daemonLog.path, contents: nil)
        // Quoted, and `%` (systemd's specifiers) doubled: a path may hold spaces or `%20`.
        func value(_ text: String) -> String { text.replacingOccurrences(of: "%", with: "%%") }
        let dropIn = (["[Unit]", "StartLimitIntervalSec=0", "[Service]", "Environment=\"LIGASD_REMOTE=\(value(remote))\"",
                       "Environment=LIGASD_LOG_TARGET=stderr", "StandardError=append:\(value(daemonLog.path))"]
            + serviceSettings).joined(separator: "\n")
        try dropIn.write(to: unitDirectory.appendingPathComponent("ligasd.service.d/harness.conf"), atomically: true, encoding: .utf8)
    }

    /// Starts `systemd --user` and waits (bounded) for its private socket.
    private func launch() async throws {
        // systemd --user refuses to run unless the system looks booted with systemd: it checks
        // this directory. It is there for the start only (apt's scripts would believe it otherwise).
        let marker = "/run/systemd/system"
        let createdMarker = !FileManager.default.fileExists(atPath: marker)
        if createdMarker { try FileManager.default.createDirectory(atPath: marker, withIntermediateDirectories: true) }
        defer { if createdMarker { rmdir(marker) } }
        let log = directory.appendingPathComponent("manager.log")
        let privateSocket = runtimeDirectory.appendingPathComponent("systemd/private").path
        unlink(privateSocket)  // an earlier manager's, in a reused directory: not this one's yet
        let manager = try Spawn.start("/lib/systemd/systemd", ["--user"], environment: environment, output: log)
        tracking.started(manager)
        self.manager = manager
        do {
            try await poll("the user manager's private socket", timeout: .seconds(20), every: .milliseconds(10)) {
                if FileManager.default.fileExists(atPath: privateSocket) { return () }
                if manager.hasExited { throw ManagerFailure(description: "systemd --user exited: \(Self.tail(of: log))") }
                return nil
            }
        } catch let failure as ManagerFailure {
            throw failure
        } catch {
            throw ManagerFailure(description: "\(error): \(Self.tail(of: log))")
        }
    }

    /// Runs `systemctl --user ARGS` (bounded) and returns its stdout; throws unless it exits 0,
    /// with what systemd says of ligasd.service.
    @discardableResult
    public func systemctl(_ arguments: String...) async throws -> String {
        let (status, output) = try await run(arguments)
        guard status == 0 else {
            let (_, state) = try await run([
                "show", "ligasd.service", "-p", "ActiveState,SubState,Result,MainPID,ExecMainPID,ExecMainCode,ExecMainStatus,NRestarts",
            ])
            throw ManagerFailure(description: "systemctl --user \(arguments.joined(separator: " ")) exited \(status): \(output) "
                + "[\(state.split(separator: "\n").joined(separator: " "))]")
        }
        return output
    }

    /// What this manager makes of `file` as a service's `EnvironmentFile=`: the environment of a
    /// transient service that prints its own, by name (the manager's own variables among them).
    public func environment(loadedFrom file: URL) async throws -> [String: String] {
        let printed = directory.appendingPathComponent("environment-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: printed) }
        let arguments = ["--wait", "--quiet", "-p", "EnvironmentFile=\(file.path)", "-p", "StandardOutput=file:\(printed.path)", "/usr/bin/env", "-0"]
        let (status, output) = try await run(arguments, program: "/usr/bin/systemd-run")
        guard status == 0 else { throw ManagerFailure(description: "systemd-run --user \(arguments.joined(separator: " ")) exited \(status): \(output)") }
        var environment: [String: String] = [:]
        for entry in try Data(contentsOf: printed).split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard let equals = text.firstIndex(of: "=") else { continue }
            environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return environment
    }

    /// Its stdout (what is parsed) and, for a failure's message, its stderr.
    private func run(_ arguments: [String], program: String = "/bin/systemctl") async throws -> (status: Int32, output: String) {
        let output = directory.appendingPathComponent("systemctl-\(UUID().uuidString).out")
        let errors = directory.appendingPathComponent("systemctl-\(UUID().uuidString).err")
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        let process = try Spawn.start(program, ["--user"] + arguments, environment: environment, output: output, errors: errors)
        tracking.started(process)
        defer { tracking.ended(process) }
        let status: Int32
        do {
            status = try await within(.seconds(60), "\(program) --user \(arguments.joined(separator: " "))") { await process.waitForExit() }
        } catch {
            await process.terminate()
            throw error
        }
        func read(_ url: URL) -> String {
            ((try? String(contentsOf: url, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return (status, status == 0 ? read(output) : [read(output), read(errors)].filter { !$0.isEmpty }.joined(separator: " "))
    }

    /// A property of ligasd.service, e.g. "MainPID" or "ActiveState".
    public func service(_ property: String) async throws -> String {
        try await systemctl("show", "-p", property, "--value", "ligasd.service")
    }

    /// ligasd's main PID, 0 when it is not running.
    public func mainPID() async throws -> Int32 {
        Int32(try await service("MainPID")) ?? 0
    }

    /// How many lines of `daemonLog` contain every one of `fragments`.
    public func logLines(containing fragments: String...) -> Int {
        let text = (try? String(contentsOf: daemonLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { line in fragments.allSatisfy { line.contains($0) } }.count
    }

    /// Stops the units, then the manager; then a ligasd the manager could not stop (only the
    /// process that was its main PID, and only if that PID still runs ligasd). Idempotent.
    public func stop() async {
        guard let manager else { return }
        self.manager = nil
        guard !manager.hasExited else { return }
        let main = (try? await mainPID()) ?? 0
        _ = try? await run(["stop", "ligasd.socket", "ligasd.service"])
        await manager.terminate()
        if main > 0, let command = try? String(contentsOfFile: "/proc/\(main)/cmdline", encoding: .utf8), command.contains("ligasd") {
            kill(main, SIGKILL)
        }
    }

    /// The safety net for a manager whose owner never stopped it (a test that threw before
    /// `stop`): SIGTERM makes a user manager start `exit.target`, stopping ligasd with its units,
    /// so neither outlives the test. `stop` (or `run`) is the way: it waits for both. Its files
    /// stay, and their place is said: the manager still writes its log while it shuts down, and
    /// whoever reads why the test failed needs it.
    deinit {
        guard let manager, !manager.hasExited else { return }
        kill(manager.pid, SIGTERM)
        temporaryDirectory?.keep()
        FileHandle.standardError.write(Data("UserManager dropped without stop(): its files stay in \(directory.path)\n".utf8))
    }

    /// Runs `body` with a manager, and stops it whatever `body` did.
    @discardableResult
    public static func run<T>(
        binaryDirectory: URL, remote: String, serviceSettings: [String] = [], directory: URL? = nil,
        tracking: ProcessTracking = .none, _ body: (UserManager) async throws -> T
    ) async throws -> T {
        let manager = try await UserManager(
            binaryDirectory: binaryDirectory, remote: remote, serviceSettings: serviceSettings, directory: directory,
            tracking: tracking)
        let outcome = await asyncResult { try await body(manager) }
        await manager.stop()
        return try outcome.get()
    }

    private static func tail(of log: URL) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(20).joined(separator: "\n")
    }

    public struct ManagerFailure: Error, CustomStringConvertible {
        public let description: String
    }
}
