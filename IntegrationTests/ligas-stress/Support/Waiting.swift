import Foundation
import LigasTestSupport
import Synchronization

/// Polls `condition` until it holds, for at most `timeout` (then throws `TimedOut`).
func waitUntil(
    _ what: String, timeout: Duration = .seconds(20), every interval: Duration = .milliseconds(20),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut(description: "timed out after \(timeout) waiting for \(what)") }
        try await Task.sleep(for: interval)
    }
}

/// Runs blocking work (socket reads with poll, sleeps between bytes) on a thread of its own,
/// never on the Swift concurrency pool, which has only as many threads as cores.
func onThread<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.name = name
        thread.start()
    }
}

/// A value shared between tasks and threads, behind a lock.
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T {
        mutex.withLock { body(&$0) }
    }

    var value: Value { mutex.withLock { $0 } }
}
