import Foundation
import LigasClient
import LigasProtocol
import Synchronization

/// Cached `teams` requests from N concurrent clients, each on its own connection doing one
/// request at a time, for a fixed time: requests per second, and the errors seen (goal 0).
enum Throughput {
    struct Figure {
        let requests: Int
        let errors: Int
        let seconds: Double
        var perSecond: Double { Double(requests) / seconds }
    }

    /// Through the LigasClient library, one task per client.
    static func library(socketPath: String, clients: Int, duration: Duration) async throws -> Figure {
        let connections = try await (0..<clients).asyncMap { _ in
            try await LigasClient.connect(socketPath: socketPath, agent: "ligas-bench")
        }
        defer { connections.forEach { $0.close() } }
        let start = ContinuousClock.now
        let deadline = start + duration
        let (requests, errors) = await withTaskGroup(of: (Int, Int).self) { group in
            for client in connections {
                group.addTask {
                    var done = 0, failed = 0
                    while ContinuousClock.now < deadline {
                        do { _ = try await client.teams(league: BenchFixture.league); done += 1 } catch { failed += 1 }
                    }
                    return (done, failed)
                }
            }
            return await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        return Figure(requests: requests, errors: errors, seconds: Samples.microseconds(ContinuousClock.now - start) / 1e6)
    }

    /// From blocking clients, one thread each, as the C peer does (answers not decoded: the
    /// daemon's share).
    static func blocking(socketPath: String, clients: Int, duration: Duration) throws -> Figure {
        let connections = try (0..<clients).map { _ in try BlockingClient(socketPath: socketPath) }
        let totals = Mutex((requests: 0, errors: 0))
        let group = DispatchGroup()
        let call = Call(Methods.Teams.self, TeamsArguments(league: BenchFixture.league))
        let start = ContinuousClock.now
        let deadline = start + duration
        for client in connections {
            group.enter()
            let thread = Thread {
                var done = 0, failed = 0
                while ContinuousClock.now < deadline {
                    do { _ = try client.call(call); done += 1 } catch { failed += 1 }
                }
                totals.withLock { $0.requests += done; $0.errors += failed }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        let seconds = Samples.microseconds(ContinuousClock.now - start) / 1e6
        return totals.withLock { Figure(requests: $0.requests, errors: $0.errors, seconds: seconds) }
    }

    static func report(_ name: String, clients: Int, _ figure: Figure) {
        Report.result(name, [
            "clients": clients, "requests": figure.requests, "errors": figure.errors,
            "seconds": Report.fixed(figure.seconds, 2), "calls_per_s": Report.fixed(figure.perSecond, 0),
        ])
    }
}

extension Sequence where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
