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
