/// Something tests wait on until another party opens it (once; later waits pass at once).
public final class Gate: Sendable {
    private let state = Shared<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public init() {}

    public var isOpen: Bool { state.withLock { $0.open } }

    public func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    public func wait() async {
        await withCheckedContinuation { continuation in
            let proceed = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if proceed { continuation.resume() }
        }
    }
}

/// A thread-safe running total.
public final class Counter: Sendable {
    private let sum = Shared(0)
    public init() {}
    public var total: Int { sum.value }
    /// Returns the new total.
    @discardableResult
    public func add(_ amount: Int) -> Int {
        sum.withLock {
            $0 += amount
            return $0
        }
    }
}
