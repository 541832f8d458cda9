import Synchronization

/// A value shared between tasks, threads and escaping closures, behind a lock (a `Mutex` itself
/// cannot be captured by an escaping closure), for the tests, the benchmark and the reliability
/// suite.
public final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) { mutex = Mutex(value) }

    public func withLock<T: Sendable>(_ body: (inout Value) throws -> T) rethrows -> T {
        try mutex.withLock { try body(&$0) }
    }

    public var value: Value { mutex.withLock { $0 } }
}
