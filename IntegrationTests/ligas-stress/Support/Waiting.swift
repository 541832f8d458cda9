import Foundation
import Synchronization

struct TimedOut: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body`, giving up after `timeout` with `TimedOut`. Unlike a task group it does not wait
/// for `body` to notice: a hung call (a connect whose hello never comes) cannot hang the run.
/// `body` is cancelled then, and left to end on its own.
@discardableResult
func within<T: Sendable>(
    _ timeout: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let pending = Shared<CheckedContinuation<T, any Error>?>(nil)
    let resume: @Sendable (Result<T, any Error>) -> Bool = { result in
        guard let continuation = pending.withLock({ box in
            defer { box = nil }
            return box
        }) else { return false }
        continuation.resume(with: result)
        return true
    }
    return try await withCheckedThrowingContinuation { continuation in
        pending.withLock { $0 = continuation }
        let work = Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            _ = resume(result)
        }
        Task {
            try? await Task.sleep(for: timeout)
            if resume(.failure(TimedOut(description: "timed out after \(timeout) waiting for \(what)"))) { work.cancel() }
        }
    }
}

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
