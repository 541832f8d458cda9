import Dispatch
import Foundation
import Synchronization

/// Samples one figure of a process (its RSS, its thread count) on a thread of its own every
/// `interval` and keeps the peak, until `stop`: for the benchmark and the reliability suite.
public final class PeakSampler: Sendable {
    private let peak = Mutex(0)
    private let running = Atomic(true)
    /// Signalled by `stop`, so that the thread ends at once rather than after its next sleep.
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    public init(pid: Int32, every interval: Duration = .milliseconds(20), _ measure: @escaping @Sendable (Int32) -> Int?) {
        precondition(interval > .zero, "a sampler needs an interval")
        let pause = DispatchTimeInterval.nanoseconds(Int(interval / .nanoseconds(1)))
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                if let value = measure(pid) { peak.withLock { $0 = max($0, value) } }
                _ = wake.wait(timeout: .now() + pause)
            }
            done.signal()
        }
        thread.start()
    }

    /// The resident size, in KiB.
    public static func memory(of pid: Int32, every interval: Duration = .milliseconds(20)) -> PeakSampler {
        PeakSampler(pid: pid, every: interval) { ProcessMemory.residentKiB(of: $0) }
    }

    /// Stops sampling; returns the peak. It waits only for the sample under way (one read of
    /// `/proc`), so it may be called from a task. Once.
    public func stop() -> Int {
        running.store(false, ordering: .relaxed)
        wake.signal()
        done.wait()
        return peak.withLock { $0 }
    }
}
