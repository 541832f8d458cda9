import LigasDomain
import Synchronization

/// A fixed number of slots for downloads that may run at once, taken in turn (first come, first
/// served). A waiting task that is cancelled (its client's cancel, its deadline, a shutdown)
/// stops waiting with `CancellationError`; one that waits longer than `longestWait` (the slots
/// held by clients that do not read, say) gets a `connectivity` error rather than hang.
final class DownloadSlots: Sendable {
    private struct State {
        var free: Int
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        /// Takers past the first check, until they leave `take`: a timeout or a cancel that comes
        /// before its taker has joined `waiters` is left here for it to find.
        var taking: [UInt64: Taker] = [:]
        var nextTaker: UInt64 = 0
    }

    private enum Taker {
        case coming
        case stopped(any Error)
    }

    private let state: Mutex<State>
    let count: Int
    let longestWait: Duration

    init(_ count: Int, longestWait: Duration = .seconds(30)) {
        precondition(count > 0)
        self.count = count
        self.longestWait = longestWait
        state = Mutex(State(free: count))
    }

    /// How many wait for a slot now (for tests).
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// A slot, held until the lease is released or dropped.
    func take() async throws -> Lease {
        let id: UInt64? = state.withLock { state in
            if state.free > 0, state.waiters.isEmpty {
                state.free -= 1
                return nil
            }
            state.nextTaker += 1
            state.taking[state.nextTaker] = .coming
            return state.nextTaker
        }
        guard let id else { return Lease(slots: self) }
        let expiry = Task { [self, longestWait, count] in
            try await Task.sleep(for: longestWait)
            let (seconds, attoseconds) = longestWait.components
            let waited = attoseconds == 0 ? "\(seconds) s" : "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
            stop(id, with: LigasError.connectivity(
                "no image download could start within \(waited): all \(count) slots for downloads from remotes are taken"))
        }
        defer {
            expiry.cancel()
            state.withLock { _ = $0.taking.removeValue(forKey: id) }
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // One lock decides: a slot freed since the first check is taken here, and a stop
                // that came before is found here (no wake-up lost, no timeout lost).
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if case .stopped(let error)? = state.taking[id] { return .failure(error) }
                    if state.free > 0, state.waiters.isEmpty {
                        state.free -= 1
                        return .success(())
                    }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            stop(id, with: CancellationError())
        }
        return Lease(slots: self)
    }

    /// Ends taker `id`'s wait with `error`: at once if it waits, else when it comes to wait.
    private func stop(_ id: UInt64, with error: any Error) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                return state.waiters.remove(at: index).continuation
            }
            if case .coming? = state.taking[id] { state.taking[id] = .stopped(error) }
            return nil
        }
        waiter?.resume(throwing: error)
    }

    fileprivate func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }

    /// One taken slot: given back once, by `release()` or when the last reference goes (a stream
    /// abandoned before it ended still frees its slot).
    final class Lease: Sendable {
        private let slots: DownloadSlots
        private let released = Atomic(false)

        fileprivate init(slots: DownloadSlots) { self.slots = slots }

        func release() {
            guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
            slots.give()
        }

        deinit { release() }
    }
}
