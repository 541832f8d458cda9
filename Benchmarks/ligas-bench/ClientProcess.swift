import Foundation
import Glibc
import LigasTestSupport

/// A whole `ligas-client teams LEAGUE` process against the running daemon, as a person or a
/// script runs it, hyperfine-style: many runs one after another, from spawn to exit, its answer
/// to /dev/null.
///
/// The peak RSS comes from a few more runs under GNU time, which forks the client from a small
/// process: the `ru_maxrss` of a child this (big) process spawns counts this process's memory
/// too, until its exec.
enum ClientProcess {
    static let time = "/usr/bin/time"

    static func run(client: String, socketPath: String, league: String, runs: Int, log: URL) throws {
        let arguments = ["teams", league, "--socket", socketPath]
        var samples = Samples(capacity: runs)
        for _ in 0..<runs {
            let start = ContinuousClock.now
            let status = try spawnAndWait(client, arguments, log: log)
            samples.add(since: start)
            guard status == 0 else {
                throw BlockingClient.Failure(description: "\(client) exited with \(status); its stderr is in \(log.path)")
            }
        }
        var peakKiB = 0
        if access(time, X_OK) == 0 {
            let report = log.deletingLastPathComponent().appendingPathComponent("ligas-client.maxrss")
            for _ in 0..<5 {
                let status = try spawnAndWait(time, ["-o", report.path, "-f", "%M", client] + arguments, log: log)
                let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
                guard status == 0, let kib = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    throw BlockingClient.Failure(description: "\(time) \(client) exited with \(status), reporting '\(text)'")
                }
                peakKiB = max(peakKiB, kib)
            }
        } else {
            Report.progress("no \(time) (Debian's package time): ligas-client's peak RSS is not measured")
        }
        Report.result("client_process", [
            "p50_ms": Report.fixed(samples.percentile(0.5) / 1000, 2), "min_ms": Report.fixed(samples.percentile(0) / 1000, 2),
            "max_ms": Report.fixed(samples.percentile(1) / 1000, 2), "runs": runs,
            "peak_rss_mib": peakKiB > 0 ? ProcessMemory.mebibytes(peakKiB) : "?",
        ])
    }

    /// Spawned, then reaped on this thread: the exit status. `log` holds the run's stderr (the
    /// last run's, so the one that failed).
    private static func spawnAndWait(_ path: String, _ arguments: [String], log: URL) throws -> Int32 {
        SpawnedProcess.waitForStatus(of: try Spawn.spawn(path, arguments, environment: ChildEnvironment.inherited(), errors: log))
    }
}
