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
        var nextWaiter: UInt64 = 0
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
            if state.free > 0 {
                state.free -= 1
                return nil
            }
            state.nextWaiter += 1
            return state.nextWaiter
        }
        if let id {
            let expiry = Task { [self] in
                try await Task.sleep(for: longestWait)
                stopWaiting(id, with: LigasError.connectivity(
                    "no image download could start within \(longestWait): all \(count) slots for downloads from remotes are taken"))
            }
            defer { expiry.cancel() }
            try await wait(as: id)
        }
        return Lease(slots: self)
    }

    private func stopWaiting(_ id: UInt64, with error: any Error) {
        let waiter = state.withLock { state in
            state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
        }
        waiter?.continuation.resume(throwing: error)
    }

    private func wait(as id: UInt64) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let cancelled = state.withLock { state in
                    guard !Task.isCancelled else { return true }
                    state.waiters.append((id, continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            stopWaiting(id, with: CancellationError())
        }
    }

    fileprivate func give() {
        let next = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil as CheckedContinuation<Void, any Error>?
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
