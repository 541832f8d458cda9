import Foundation
import LigasTestSupport

/// The soft limit on open files of a process, from `/proc/PID/limits`.
func openFileLimit(of pid: Int32) -> Int? {
    guard let limits = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8) else { return nil }
    guard let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") }) else { return nil }
    return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first.flatMap { Int($0) }
}
