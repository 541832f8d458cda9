import Foundation
import LigasTestSupport
import Synchronization

extension ProcessMemory {
    static func mebibytes(_ kib: Int) -> String { Report.fixed(Double(kib) / 1024) }
}

/// Samples a process's RSS on its own thread every few milliseconds and keeps the peak.
final class PeakMemorySampler: Sendable {
    private let peak = Mutex(0)
    private let running = Atomic(true)
    private let done = DispatchSemaphore(value: 0)

    init(pid: Int32, every interval: Duration = .milliseconds(20)) {
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                if let rss = ProcessMemory.residentKiB(of: pid) { peak.withLock { $0 = max($0, rss) } }
                Thread.sleep(forTimeInterval: Double(Samples.microseconds(interval)) / 1e6)
            }
            done.signal()
        }
        thread.start()
    }

    /// Stops sampling; returns the peak RSS in KiB.
    func stop() -> Int {
        running.store(false, ordering: .relaxed)
        done.wait()
        return peak.withLock { $0 }
    }
}
