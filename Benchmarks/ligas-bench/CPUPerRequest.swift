import Foundation
import LigasTestSupport

/// ligasd's CPU time (user + system, from /proc) per cached `teams` request, and journald's for
/// the entries those requests leave: what each request costs the machine, not only the client.
enum CPUPerRequest {
    /// Runs `work` (which returns how many requests it made) and reports the CPU each process
    /// spent per request meanwhile.
    static func measure(
        _ name: String, daemonPID: Int32, journaldPID: Int32?, extra: KeyValuePairs<String, CustomStringConvertible> = [:],
        _ work: () async throws -> Int
    ) async throws {
        let daemonBefore = ProcessCounters.cpuMicroseconds(of: daemonPID) ?? 0
        let journaldBefore = journaldPID.flatMap(ProcessCounters.cpuMicroseconds) ?? 0
        let requests = max(1, try await work())
        let daemon = (ProcessCounters.cpuMicroseconds(of: daemonPID) ?? 0) - daemonBefore
        let journald = journaldPID.flatMap(ProcessCounters.cpuMicroseconds).map { $0 - journaldBefore }
        let text = ["requests=\(requests)", "us=\(Report.fixed(daemon / Double(requests)))",
                    "journald_us=\(journald.map { Report.fixed($0 / Double(requests)) } ?? "-")"]
            + extra.map { "\($0.key)=\($0.value)" }
        Report.line("RESULT ligasd \(name) \(text.joined(separator: " "))")
    }

    /// The pid of the journald ligasd logs to, if one runs.
    /// (The oldest `systemd-journal` process, by start time, as `pgrep -o -x` would find it.)
    static func journaldPID() -> Int32? {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
        return pids.compactMap { pid -> (pid: Int32, started: Int)? in
            // The start time is field 22 of proc(5).
            guard let stat = ProcessCounters.stat(of: pid), stat.name == "systemd-journal", stat.fields.count > 19 else { return nil }
            return (pid, Int(stat.fields[19]) ?? .max)
        }.min { $0.started < $1.started }?.pid
    }
}
