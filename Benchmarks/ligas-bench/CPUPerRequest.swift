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
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
                  stat[stat.index(after: open)..<close] == "systemd-journal"
            else { return nil }
            // After the name: state is the first field, the start time the 20th.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 19 ? (pid, Int(fields[19]) ?? .max) : nil
        }.min { $0.started < $1.started }?.pid
    }
}
