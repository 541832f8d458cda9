import Foundation
import LigasTestSupport

extension UserManager {
    /// Runs `body` under a real `systemd --user` manager (LigasTestSupport's, the tests' own):
    /// ligasd from `--bin` with the extra `[Service]` lines given, serving `--sample-data`, the
    /// manager's files in the scenario's work directory. Everything it starts is recorded
    /// (`Children`), so that it is killed whatever happens; the manager is stopped when `body` ends.
    static func forScenario<T>(
        _ options: Options, serviceSettings: [String] = [], _ body: (UserManager) async throws -> T
    ) async throws -> T {
        try await run(
            binaryDirectory: options.binDirectory, remote: options.sampleData.path, serviceSettings: serviceSettings,
            directory: options.workDirectory.appendingPathComponent("manager"),
            tracking: ProcessTracking(started: Children.adopt, ended: Children.forget), body)
    }
}
