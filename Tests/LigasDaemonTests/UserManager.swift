import Foundation
import Glibc
import LigasSampleDataLocation
import LigasTestSupport

/// A real `systemd --user` manager for this test, running the project's user units from
/// `systemd/user/` (with the built binary's path filled in), as
/// `../shared/notes/systemd-in-tests.md` describes for machines where systemd is not PID 1.
final class UserManager: @unchecked Sendable {
    let directory = TemporaryDirectory()
    private var manager: SpawnedProcess?
    var runtimeDirectory: URL { directory.url.appendingPathComponent("runtime") }
    var configDirectory: URL { directory.url.appendingPathComponent("config") }
    var socketPath: String { runtimeDirectory.appendingPathComponent("ligasd.sock").path }
    var unitDirectory: URL { configDirectory.appendingPathComponent("systemd/user") }
    /// Every ligasd instance's stderr log, appended.
    var daemonLog: URL { directory.url.appendingPathComponent("ligasd.log") }

    /// Starts the manager with the user units and a drop-in of extra `[Service]` lines.
    init(serviceSettings: [String]) async throws {
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try installUnits(serviceSettings: serviceSettings)

        // systemd --user insists on a system booted with systemd: it checks this directory.
        let marker = "/run/systemd/system"
        let createdMarker = !FileManager.default.fileExists(atPath: marker)
        if createdMarker { try FileManager.default.createDirectory(atPath: marker, withIntermediateDirectories: true) }
        defer { if createdMarker { rmdir(marker) } }
        manager = try Spawn.start(
            "/lib/systemd/systemd", ["--user"], environment: environment,
            output: directory.url.appendingPathComponent("manager.log"))
        let privateSocket = runtimeDirectory.appendingPathComponent("systemd/private").path
        try await Wait.until("the user manager's private socket") { FileManager.default.fileExists(atPath: privateSocket) }
        try await systemctl("daemon-reload")
        try await systemctl("start", "ligasd.socket")
    }

    /// The test process's environment, less what it holds for itself, plus the manager's directories.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ChildProcess.inheritedVariablesRemoved { environment.removeValue(forKey: name) }
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        environment["XDG_CONFIG_HOME"] = configDirectory.path
        environment["HOME"] = directory.url.path
        return environment
    }

    private func installUnits(serviceSettings: [String]) throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../systemd/user").standardized
        try FileManager.default.createDirectory(at: unitDirectory.appendingPathComponent("ligasd.service.d"), withIntermediateDirectories: true)
        for unit in ["ligasd.socket", "ligasd.service"] {
            let text = try String(contentsOf: source.appendingPathComponent(unit), encoding: .utf8)
                .replacingOccurrences(of: "@bindir@", with: Binaries.directory.path)
            try text.write(to: unitDirectory.appendingPathComponent(unit), atomically: true, encoding: .utf8)
        }
        // The tests start ligasd far more often than real use would: lift systemd's start limit.
        let dropIn = (["[Unit]", "StartLimitIntervalSec=0", "[Service]", "Environment=LIGASD_REMOTE=\(BundledSampleData.baseURL.path)",
                       "Environment=LIGASD_LOG_TARGET=stderr", "StandardError=append:\(daemonLog.path)"]
            + serviceSettings).joined(separator: "\n")
        try dropIn.write(to: unitDirectory.appendingPathComponent("ligasd.service.d/test.conf"), atomically: true, encoding: .utf8)
    }

    /// Runs `systemctl --user ARGS` and returns its stdout.
    @discardableResult
    func systemctl(_ arguments: String...) async throws -> String {
        let output = directory.url.appendingPathComponent("systemctl-\(UUID().uuidString).out")
        _ = try await Spawn.run("/bin/systemctl", ["--user"] + arguments, environment: environment, output: output)
        return (try String(contentsOf: output, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A property of ligasd.service, e.g. "MainPID" or "ActiveState".
    func service(_ property: String) async throws -> String {
        try await systemctl("show", "-p", property, "--value", "ligasd.service")
    }

    func stop() async {
        _ = try? await systemctl("stop", "ligasd.socket", "ligasd.service")
        await manager?.terminate()
    }

    static func run(serviceSettings: [String], _ body: (UserManager) async throws -> Void) async throws {
        let manager = try await UserManager(serviceSettings: serviceSettings)
        let outcome = await asyncResult { try await body(manager) }
        await manager.stop()
        try outcome.get()
    }
}

/// Bounded waiting for a condition (not a timing assertion: the bound only stops a hung test).
enum Wait {
    static func until(_ what: String, timeout: Duration = .seconds(20), _ condition: () async throws -> Bool) async throws {
        try await poll(what, timeout: timeout, every: .milliseconds(10)) { try await condition() ? () : nil }
    }
}
