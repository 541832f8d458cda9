import Foundation
import Glibc
import LigasTestSupport
import Testing

/// The tests' one way to start a child: what it reports of the child's end is what the tests
/// assert on (ligas-client's exit statuses above all).
@Suite("Spawn, the tests' child processes")
struct SpawnTests {
    @Test("A child's own exit status reads as itself, 130 included; a signal's death as minus its number")
    func exitStatusAndSignalDiffer() async throws {
        #expect(try await Spawn.run("/bin/sh", ["-c", "exit 130"], environment: [:]) == 130)
        #expect(try await Spawn.run("/bin/sh", ["-c", "exit 0"], environment: [:]) == 0)
        #expect(try await Spawn.run("/bin/sh", ["-c", "kill -KILL $$"], environment: [:]) == -SIGKILL)
    }

    @Test("A child starts as systemd starts a service, no signal blocked: SIGINT, SIGTERM and SIGHUP end it")
    func childStartsWithDefaultSignals() async throws {
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            #expect(try await Spawn.run("/bin/sh", ["-c", "kill -\(signal) $$"], environment: [:]) == -signal)
        }
        let directory = TemporaryDirectory()
        let status = directory.url.appendingPathComponent("status")
        // grep itself, started directly (a shell changes its own mask as it forks and waits).
        _ = try await Spawn.run("/bin/grep", ["^SigBlk:", "/proc/self/status"], environment: [:], output: status)
        let blocked = try String(contentsOf: status, encoding: .utf8)
        #expect(blocked == "SigBlk:\t0000000000000000\n", "\(blocked)")
    }
}
