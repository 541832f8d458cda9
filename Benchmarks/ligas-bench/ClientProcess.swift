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

    /// posix_spawn, then waitpid: the exit status.
    private static func spawnAndWait(_ path: String, _ arguments: [String], log: URL) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = ChildEnvironment.inherited().map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BlockingClient.Failure(description: "cannot run \(path): \(String(cString: strerror(spawned)))") }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        return (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }
}
