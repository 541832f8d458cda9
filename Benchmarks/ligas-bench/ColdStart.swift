import Foundation
import Glibc
import LigasTestSupport

/// Cold start: from a connection to a socket that no ligasd serves yet to the first reply.
enum ColdStart {
    /// Under `systemd-socket-activate`: it binds the socket and, at the first connection, execs
    /// ligasd with it. Timed from that connection (once the socket exists), as under systemd, whose
    /// socket unit listens long before anyone connects: the tool's own start before it binds
    /// (8–10 ms here) is not part of an activation. The figure from the spawn is printed beside
    /// it. The cache file persists across runs, as it does on a real machine. `ligasd` may be
    /// another program started the same way, for the floor under ligasd's figure (`result` names
    /// the line: Benchmarks/cold-start-floor/ping-only.c, which only answers the ping).
    static func socketActivate(
        ligasd: String, remote: String, directory: URL, runs: Int, result: String = "cold_start_socket_activate"
    ) async throws {
        var fromConnection = Samples(capacity: runs)
        var fromSpawn = Samples(capacity: runs)
        for _ in 0..<runs {
            let daemon = try BenchDaemon(ligasd: ligasd, remote: remote, directory: directory, name: "cold")
            do {
                try waitForSocketFile(daemon)
                let connecting = ContinuousClock.now
                _ = try daemon.firstReply()
                fromConnection.add(since: connecting)
                fromSpawn.add(since: daemon.spawnedAt)
            } catch {
                await daemon.stop()
                throw error
            }
            await daemon.stop()
        }
        Report.result(result, [
            "runs": runs, "p50_ms": milliseconds(fromConnection.percentile(0.5)),
            "max_ms": milliseconds(fromConnection.percentile(1)), "mean_ms": milliseconds(fromConnection.mean),
            "from_spawn_p50_ms": milliseconds(fromSpawn.percentile(0.5)),
        ])
    }

    /// Until `systemd-socket-activate` has bound the socket (it listens right after), without
    /// connecting: a connection is what starts ligasd.
    private static func waitForSocketFile(_ daemon: BenchDaemon) throws {
        let deadline = ContinuousClock.now + .seconds(20)
        var status = stat()
        while stat(daemon.socketPath, &status) != 0 {
            guard ContinuousClock.now < deadline, !daemon.process.hasExited else {
                throw BlockingClient.Failure(description: "systemd-socket-activate did not bind \(daemon.socketPath)")
            }
            usleep(100)
        }
    }

    /// Under a real `systemd --user` manager with the user units (LigasTestSupport's, as the
    /// end-to-end tests run them), logging where the bench's ligasd does, with a journald running
    /// whatever the log target (without one, the manager writes to the console at every start,
    /// Benchmarks/HISTORY.md, the sixteenth stop): each run stops ligasd.service, then times a
    /// connection to the socket the manager holds, which makes it start the service, to the first
    /// `ping` reply. The units start `@bindir@/ligasd`, so `ligasd` must be named so (the floor is
    /// built under that name in a directory of its own). The manager's files and both logs stay
    /// in `directory`.
    static func userManager(
        ligasd: String, remote: String, directory: URL, runs: Int, result: String = "cold_start_user_manager"
    ) async throws {
        let program = URL(fileURLWithPath: ligasd)
        guard program.lastPathComponent == "ligasd" else {
            throw BlockingClient.Failure(description: "the user units start @bindir@/ligasd: \(ligasd) must be named ligasd")
        }
        var fromConnection = Samples(capacity: runs)
        // Short: the manager's sockets are in there (a Unix socket's path has room for 107 bytes).
        let files = directory.appendingPathComponent(result == "cold_start_user_manager" ? "um" : "um-floor")
        try await Journald.withRunning {
            try await UserManager.run(
                binaryDirectory: program.deletingLastPathComponent(), remote: remote,
                serviceSettings: ["Environment=LIGASD_LOG_TARGET=\(BenchDaemon.defaultLogTarget)"], directory: files
            ) { manager in
                for _ in 0..<runs {
                    try await manager.systemctl("stop", "ligasd.service")
                    let state = try await manager.service("ActiveState")
                    guard state == "inactive" else { throw BlockingClient.Failure(description: "ligasd.service did not stop: \(state)") }
                    let connecting = ContinuousClock.now
                    do {
                        _ = try BenchDaemon.firstReply(socketPath: manager.socketPath, timeout: .seconds(20))
                    } catch {
                        let unit = (try? await manager.systemctl("show", "-p", "ActiveState,Result", "ligasd.service")) ?? "?"
                        throw BlockingClient.Failure(description: "no first reply (\(error)): \(unit.split(separator: "\n").joined(separator: " ")); logs in \(files.path)")
                    }
                    fromConnection.add(since: connecting)
                }
            }
        }
        Report.result(result, [
            "runs": runs, "p50_ms": milliseconds(fromConnection.percentile(0.5)),
            "max_ms": milliseconds(fromConnection.percentile(1)), "mean_ms": milliseconds(fromConnection.mean),
        ])
    }

    /// One sample against a socket that something else holds (`systemd-socket-activate` running
    /// ligasd under callgrind, in scripts/order-symbols): connect with no daemon running, to the
    /// first `ping` reply. Prints the result.
    static func firstReply(socketPath: String) throws {
        let start = ContinuousClock.now
        _ = try BenchDaemon.firstReply(socketPath: socketPath, timeout: .seconds(20))
        Report.line("FIRST_REPLY_US \(Report.fixed(Samples.microseconds(ContinuousClock.now - start)))")
    }

    private static func milliseconds(_ microseconds: Double) -> String {
        Report.fixed(microseconds / 1000, 2)
    }
}
