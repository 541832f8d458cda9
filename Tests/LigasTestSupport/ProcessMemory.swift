import Foundation

/// A process's memory as the kernel counts it (`/proc/PID/status`), in KiB: the one reader the
/// tests, the benchmark and the reliability suite share.
public struct ProcessMemory: Sendable {
    /// Resident now (`VmRSS`).
    public let residentKiB: Int
    /// The highest resident size so far, the high-water mark (`VmHWM`).
    public let peakKiB: Int

    /// Nil when the process is gone (or /proc cannot be read).
    public init?(pid: Int32) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first }.flatMap { Int($0) }
        }
        guard let resident = field("VmRSS"), let peak = field("VmHWM") else { return nil }
        residentKiB = resident
        peakKiB = peak
    }

    /// Resident now, in KiB; nil when the process is gone.
    public static func residentKiB(of pid: Int32) -> Int? {
        ProcessMemory(pid: pid)?.residentKiB
    }
}
