import Foundation

/// A process's CPU time, thread count and open-file limit as the kernel counts them
/// (`/proc/PID/stat`, `/proc/PID/status` and `/proc/PID/limits`), for the benchmark and the
/// reliability suite.
public enum ProcessCounters {
    /// User plus system CPU time the process has used so far, all its threads (also those that
    /// have exited), in microseconds; nil when the process is gone. The kernel counts in clock
    /// ticks (10 ms here), so measure over enough work.
    public static func cpuMicroseconds(of pid: Int32) -> Double? {
        // utime is field 14 of proc(5), stime 15.
        guard let fields = stat(of: pid)?.fields, fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12])
        else { return nil }
        return (user + system) * 1e6 / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// `/proc/PID/stat`: the command name, as the kernel keeps it (15 characters at most), and the
    /// fields after it, the first of them the state (field 3 of proc(5)); nil when the process is
    /// gone. (The name may hold spaces and parentheses: it ends at the last `)`.)
    public static func stat(of pid: Int32) -> (name: Substring, fields: [Substring])? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")")
        else { return nil }
        return (text[text.index(after: open)..<close], text[text.index(after: close)...].split(separator: " "))
    }

    /// Threads the process has now; nil when it is gone.
    public static func threads(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
            .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).last }.flatMap { Int($0) }
    }

    /// The soft limit on open files of the process; nil when it is gone.
    public static func openFileLimit(of pid: Int32) -> Int? {
        guard let limits = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8),
              let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") })
        else { return nil }
        return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first.flatMap { Int($0) }
    }
}
