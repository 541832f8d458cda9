import Foundation
import LigasTestSupport
import Synchronization

extension ProcessMemory {
    static func mebibytes(_ kib: Int) -> String { Report.fixed(Double(kib) / 1024) }
}

/// Samples one figure of a process (its RSS, its thread count) on a thread of its own every few
/// milliseconds and keeps the peak.
final class PeakSampler: Sendable {
    private let peak = Mutex(0)
    private let running = Atomic(true)
    private let done = DispatchSemaphore(value: 0)

    init(pid: Int32, every interval: Duration = .milliseconds(20), _ measure: @escaping @Sendable (Int32) -> Int?) {
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                if let value = measure(pid) { peak.withLock { $0 = max($0, value) } }
                Thread.sleep(forTimeInterval: Double(Samples.microseconds(interval)) / 1e6)
            }
            done.signal()
        }
        thread.start()
    }

    /// The resident size, in KiB.
    static func memory(of pid: Int32) -> PeakSampler {
        PeakSampler(pid: pid) { ProcessMemory.residentKiB(of: $0) }
    }

    /// Stops sampling; returns the peak.
    func stop() -> Int {
        running.store(false, ordering: .relaxed)
        done.wait()
        return peak.withLock { $0 }
    }
}
