import Foundation
import LigasClient
import LigasTestSupport
import Synchronization

/// A thousand connections at once, each asking for cached teams a hundred times: ligasd must
/// answer them all with a handful of threads (no thread per connection, no pile-up of Dispatch
/// workers), losing none.
enum ManyConnections {
    static func run(socketPath: String, daemonPID: Int32, connections: Int, requestsEach: Int) async throws {
        let clients = try await (0..<connections).asyncMap { _ in
            try await LigasClient.connect(socketPath: socketPath, agent: "ligas-bench")
        }
        defer { clients.forEach { $0.close() } }
        let threads = PeakSampler(pid: daemonPID, every: .milliseconds(5)) { ProcessCounters.threads(of: $0) }
        let start = ContinuousClock.now
        let (samples, errors) = await withTaskGroup(of: ([Double], Int).self) { group in
            for client in clients {
                group.addTask {
                    var latencies: [Double] = []
                    latencies.reserveCapacity(requestsEach)
                    var failed = 0
                    for _ in 0..<requestsEach {
                        let sent = ContinuousClock.now
                        do {
                            _ = try await client.teams(league: BenchFixture.league)
                            latencies.append(Samples.microseconds(ContinuousClock.now - sent))
                        } catch {
                            failed += 1
                        }
                    }
                    return (latencies, failed)
                }
            }
            return await group.reduce(into: ([Double](), 0)) { $0.0 += $1.0; $0.1 += $1.1 }
        }
        let seconds = Samples.microseconds(ContinuousClock.now - start) / 1e6
        let peakThreads = threads.stop()
        let sorted = samples.sorted()
        func percentileMs(_ p: Double) -> String {
            sorted.isEmpty ? "-" : Report.fixed(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] / 1000, 2)
        }
        Report.result("load_\(connections)", [
            "threads_peak": peakThreads, "calls_per_s": Report.fixed(Double(samples.count) / seconds, 0),
            "p50_ms": percentileMs(0.5), "p99_ms": percentileMs(0.99), "errors": errors,
            "requests": samples.count + errors, "cores": ProcessInfo.processInfo.activeProcessorCount,
        ])
    }
}
