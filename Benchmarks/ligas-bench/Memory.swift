import Foundation
import LigasTestSupport

/// RSS growth while a client reads a long stream slowly: the daemon must hold back (backpressure)
/// instead of queueing what the client has not read.
enum SlowReader {
    static func run(socketPath: String, daemonPID: Int32, url: URL, totalBytes: Int, bytesPerSecond: Int) throws {
        let client = try BlockingClient(socketPath: socketPath)
        let readSize = 64 << 10
        let pauseMicroseconds = UInt32(1_000_000 * readSize / bytesPerSecond)
        let before = ProcessMemory.residentKiB(of: daemonPID) ?? 0
        let sampler = PeakSampler.memory(of: daemonPID)
        var streamed = 0
        let start = ContinuousClock.now
        while streamed < totalBytes {
            streamed += try client.download(.url(url), readSize: readSize) { usleep(pauseMicroseconds) }
        }
        let peak = sampler.stop()
        Report.result("memory_slow_reader", [
            "streamed_mib": streamed >> 20, "reader_mib_per_s": Report.fixed(Streaming.mibPerSecond(streamed, since: start)),
            "rss_before_mib": ProcessMemory.mebibytes(before), "rss_peak_mib": ProcessMemory.mebibytes(peak),
            "growth_mib": ProcessMemory.mebibytes(max(0, peak - before)),
        ])
    }
}

extension ProcessMemory {
    static func mebibytes(_ kib: Int) -> String { Report.fixed(Double(kib) / 1024) }
}
