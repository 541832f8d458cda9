import Foundation

/// The `systemd --user` manager that scripts/lib/user-manager.sh started: its socket, its
/// systemctl wrapper (`UM_SYSTEMCTL`, systemctl --user with the manager's environment) and the
/// log every ligasd instance appends to.
struct UserManagerControl: Sendable {
    let socketPath: String
    let systemctlPath: String
    let log: URL

    init(_ options: Options) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let socket = options.string("socket") ?? environment["UM_SOCKET"],
              let systemctl = options.string("systemctl") ?? environment["UM_SYSTEMCTL"],
              let log = options.string("log") ?? environment["UM_LOG"]
        else {
            throw Options.UsageError(description: "\(options.scenario) runs under a user manager: pass --socket, --systemctl and --log (scripts/stress does)")
        }
        socketPath = socket
        systemctlPath = systemctl
        self.log = URL(fileURLWithPath: log)
    }

    /// Runs `systemctl --user ARGS` (bounded); throws unless it exits 0.
    @discardableResult
    func systemctl(_ arguments: String...) async throws -> String {
        let (status, output) = try await Children.run(systemctlPath, arguments, timeout: .seconds(60))
        guard status == 0 else {
            // No journal here: the unit's properties are what systemd can say about the failure.
            let (_, state) = try await Children.run(systemctlPath, [
                "show", "ligasd.service", "-p", "ActiveState,SubState,Result,MainPID,ExecMainPID,ExecMainCode,ExecMainStatus,NRestarts",
            ], timeout: .seconds(30))
            throw CommandFailed(description: "systemctl --user \(arguments.joined(separator: " ")) exited \(status): \(output) "
                + "[\(state.split(separator: "\n").joined(separator: " "))]")
        }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// ligasd's main PID, 0 when it is not running.
    func mainPID() async throws -> Int32 {
        let text = try await systemctl("show", "-p", "MainPID", "--value", "ligasd.service")
        return Int32(text) ?? 0
    }

    /// How many lines of ligasd's log contain every one of `fragments`.
    func logLines(containing fragments: String...) -> Int {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { line in fragments.allSatisfy { line.contains($0) } }.count
    }

    struct CommandFailed: Error, CustomStringConvertible {
        let description: String
    }
}

func processExists(_ pid: Int32) -> Bool {
    pid > 0 && FileManager.default.fileExists(atPath: "/proc/\(pid)")
}
