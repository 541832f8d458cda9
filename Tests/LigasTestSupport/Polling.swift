import Foundation

public struct TimedOut: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}

/// Runs `body`, throwing `TimedOut` if it has not finished within `timeout` (it is cancelled then).
/// Like `poll`'s, the bound only stops a hung test; it is never what a test asserts.
public func bounded<T: Sendable>(
    _ what: String, timeout: Duration = .seconds(10), _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw TimedOut(description: "\(what) did not finish within \(timeout)")
        }
        return value
    }
}

/// Runs `body`, giving up after `timeout` with `TimedOut`. Unlike `bounded` (a task group) it does
/// not wait for `body` to notice: a hung call (a connect whose hello never comes, a child process
/// that never exits) cannot hang the run. `body` is cancelled then, and left to end on its own.
/// The bound stops a hung run; it is never what a test asserts.
@discardableResult
public func within<T: Sendable>(
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
    // The timer goes as soon as `body` ends, rather than sleeping out the timeout.
    let timer = Shared<Task<Void, Never>?>(nil)
    return try await withCheckedThrowingContinuation { continuation in
        pending.withLock { $0 = continuation }
        let work = Task {
            let result = await asyncResult(body)
            if resume(result) { timer.withLock { $0?.cancel() } }
        }
        timer.withLock {
            $0 = Task {
                try? await Task.sleep(for: timeout)
                if resume(.failure(TimedOut(description: "timed out after \(timeout) waiting for \(what)"))) { work.cancel() }
            }
        }
        // `body` may have ended before the timer was there to cancel.
        if pending.withLock({ $0 == nil }) { timer.withLock { $0?.cancel() } }
    }
}

/// Polls `condition` until it returns a value, for at most `timeout`; throws `TimedOut` after that.
/// For things that happen in another process (journald storing an entry, a socket appearing), or
/// that a test can see only from outside (a spy's count). `condition` may throw to give up early
/// (a process that died). The bound only stops a hung test: it is never what a test asserts.
///
/// It gives up once `timeout` has passed *and* `condition` has been asked `timeout / interval`
/// times, or at the latest after three times `timeout`. Time alone is not enough: when other tests
/// hold every thread of the run's pool (two on these machines), this poll can wake after the
/// deadline, before the task it waits for has had its turn, and fail a test that was only starved
/// (seen in CI, after a 10 s stall).
@discardableResult
public func poll<T>(
    _ what: String, timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(50),
    _ condition: () async throws -> T?
) async throws -> T {
    precondition(interval > .zero, "poll needs an interval")
    let start = ContinuousClock.now
    let tries = Int(timeout / interval)
    var asked = 0
    while true {
        if let value = try await condition() { return value }
        asked += 1
        let elapsed = ContinuousClock.now - start
        guard (elapsed < timeout || asked < tries) && elapsed < timeout * 3 else {
            throw TimedOut(description: "timed out after \(elapsed) (\(asked) tries) waiting for \(what)")
        }
        try await Task.sleep(for: interval)
    }
}

/// `poll` for a condition that holds or not.
public func waitUntil(
    _ what: String, timeout: Duration = .seconds(20), every interval: Duration = .milliseconds(20),
    _ condition: () async throws -> Bool
) async throws {
    try await poll(what, timeout: timeout, every: interval) { try await condition() ? () : nil }
}
