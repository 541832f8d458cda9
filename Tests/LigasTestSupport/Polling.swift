import Foundation

public struct TimedOut: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}

/// Polls `condition` until it returns a value, for at most `timeout`; throws `TimedOut` after that.
/// For things that happen in another process (journald storing an entry, a socket appearing).
/// The bound only stops a hung test: it is never what a test asserts.
@discardableResult
public func poll<T>(
    _ what: String, timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(50),
    _ condition: () throws -> T?
) async throws -> T {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try condition() { return value }
        guard ContinuousClock.now < deadline else { throw TimedOut(description: "timed out after \(timeout) waiting for \(what)") }
        try await Task.sleep(for: interval)
    }
}
