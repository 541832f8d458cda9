import Foundation
import LigasTestSupport

/// Samples a process's resident size every `interval` until stopped; keeps the largest.
final class MemorySampler: Sendable {
    private let task: Task<Int, Never>

    init(pid: Int32, every interval: Duration = .milliseconds(200)) {
        task = Task.detached {
            var largest = 0
            while !Task.isCancelled {
                if let memory = ProcessMemory(pid: pid) { largest = max(largest, memory.residentKiB) }
                try? await Task.sleep(for: interval)
            }
            return largest
        }
    }

    /// The largest resident size seen, in KiB.
    func stop() async -> Int {
        task.cancel()
        return await task.value
    }
}

/// How many threads a process runs (from `/proc/PID/status`).
func threadCount(of pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    return status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
        .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).last }.flatMap { Int($0) }
}

/// The soft limit on open files of a process, from `/proc/PID/limits`.
func openFileLimit(of pid: Int32) -> Int? {
    guard let limits = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8) else { return nil }
    guard let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") }) else { return nil }
    return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first.flatMap { Int($0) }
}
