import NIOConcurrencyHelpers

/// Something tests wait on until another party opens it (once; later waits pass at once).
public final class Gate: Sendable {
    private let state = NIOLockedValueBox<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public init() {}

    public var isOpen: Bool { state.withLockedValue { $0.open } }

    public func open() {
        let waiters = state.withLockedValue { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    public func wait() async {
        await withCheckedContinuation { continuation in
            let proceed = state.withLockedValue { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if proceed { continuation.resume() }
        }
    }
}

/// A thread-safe running total.
public final class Counter: Sendable {
    private let value = NIOLockedValueBox(0)
    public init() {}
    public var total: Int { value.withLockedValue { $0 } }
    /// Returns the new total.
    @discardableResult
    public func add(_ amount: Int) -> Int {
        value.withLockedValue {
            $0 += amount
            return $0
        }
    }
}
