import Foundation

/// Cold start: from nothing running to the first reply.
enum ColdStart {
    /// Under `systemd-socket-activate`: from spawning it (it binds the socket, then execs ligasd)
    /// to the first `ping` reply, ligasd's whole start-up included. The cache file persists across
    /// runs, as it does on a real machine.
    static func socketActivate(ligasd: String, remote: String, directory: URL, runs: Int) async throws {
        var samples = Samples(capacity: runs)
        for _ in 0..<runs {
            let daemon = try BenchDaemon(ligasd: ligasd, remote: remote, directory: directory, name: "cold")
            do {
                _ = try daemon.firstReply()
                samples.add(since: daemon.spawnedAt)
            } catch {
                await daemon.stop()
                throw error
            }
            await daemon.stop()
        }
        report("cold_start_socket_activate", samples, runs: runs)
    }

    /// One sample against a socket that something else holds (the user manager): connect with no
    /// daemon running, which makes systemd start it, to the first `ping` reply. Prints the result.
    static func firstReply(socketPath: String) throws {
        let start = ContinuousClock.now
        _ = try BenchDaemon.firstReply(socketPath: socketPath, timeout: .seconds(20))
        Report.line("FIRST_REPLY_US \(Report.fixed(Samples.microseconds(ContinuousClock.now - start)))")
    }

    static func report(_ name: String, _ samples: Samples, runs: Int) {
        Report.result(name, [
            "runs": runs, "p50_ms": Report.fixed(samples.percentile(0.5) / 1000, 2),
            "max_ms": Report.fixed(samples.percentile(1) / 1000, 2), "mean_ms": Report.fixed(samples.mean / 1000, 2),
        ])
    }
}
