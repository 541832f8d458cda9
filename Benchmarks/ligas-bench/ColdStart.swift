import Foundation
import Glibc

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

    /// One sample against a socket that something else holds (the user manager): connect with no
    /// daemon running, which makes systemd start it, to the first `ping` reply. Prints the result.
    static func firstReply(socketPath: String) throws {
        let start = ContinuousClock.now
        _ = try BenchDaemon.firstReply(socketPath: socketPath, timeout: .seconds(20))
        Report.line("FIRST_REPLY_US \(Report.fixed(Samples.microseconds(ContinuousClock.now - start)))")
    }

    private static func milliseconds(_ microseconds: Double) -> String {
        Report.fixed(microseconds / 1000, 2)
    }
}
