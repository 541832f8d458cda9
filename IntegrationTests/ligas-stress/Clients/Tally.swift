import Foundation
import LigasTestSupport

/// What a group of clients saw, merged at the end.
struct Tally: Sendable {
    var succeeded = 0
    var failed = 0
    /// Requests that failed at connection level once and were asked again on a new connection.
    var retried = 0
    var failures: [String: Int] = [:]
    var retryReasons: [String: Int] = [:]
    var slowest: Duration = .zero

    mutating func merge(_ other: Tally) {
        succeeded += other.succeeded
        failed += other.failed
        retried += other.retried
        failures.merge(other.failures, uniquingKeysWith: +)
        retryReasons.merge(other.retryReasons, uniquingKeysWith: +)
        slowest = max(slowest, other.slowest)
    }

    mutating func fail(_ failure: Failure, question: Question) {
        failed += 1
        failures["\(failure)", default: 0] += 1
        let shown = Self.failuresShown.withLock { shown in
            shown += 1
            return shown
        }
        if shown <= 20 { Report.progress("request \(question) failed: \(failure)\(shown == 20 ? " (no more shown)" : "")") }
    }

    /// Failures printed so far by every client of the run: the first few tell what happened.
    private static let failuresShown = Shared(0)

    static func describe(_ counts: [String: Int]) -> String {
        counts.isEmpty ? "none" : counts.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
    }
}
