import LigasDomain
import Synchronization

/// Concurrent loads of the same key share one underlying load (one remote fetch, one save).
///
/// The first caller of a key leads: it runs the load itself, in its own task, so a flight costs
/// no extra task or thread hop (most flights are single cache hits). Later callers wait for the
/// leader's result. If the leader's own task is cancelled, its waiters are not: one of them
/// takes over and loads again.
public final class SingleFlightLoader<Key: Hashable & Sendable, Value: Sendable>: Loader {
    private let decoratee: any Loader<Key, Value>
    private let flights = Mutex<[Key: Flight]>([:])

    public init(decoratee: any Loader<Key, Value>) {
        self.decoratee = decoratee
    }

    public func load(_ key: Key) async throws -> Loaded<Value> {
        while true {
            let (flight, leads) = flights.withLock { flights in
                if let flight = flights[key] { return (flight, false) }
                let flight = Flight()
                flights[key] = flight
                return (flight, true)
            }
            guard leads else {
                switch await flight.outcome() {
                case .loaded(let result): return try result.get()
                case .leaderCancelled: continue
                }
            }
            let result = await Result { try await decoratee.load(key) }
            // Forget the flight before answering: a load that starts after this one ended must
            // not be handed this (possibly already stale) result.
            flights.withLock { _ = $0.removeValue(forKey: key) }
            // A failure of a cancelled leader may be just that cancellation: the waiters retry.
            let leaderGaveUp = Task.isCancelled && (try? result.get()) == nil
            flight.finish(leaderGaveUp ? .leaderCancelled : .loaded(result))
            return try result.get()
        }
    }

    private enum Outcome: Sendable {
        case loaded(Result<Loaded<Value>, any Error>)
        case leaderCancelled
    }

    private final class Flight: Sendable {
        private struct State {
            var waiters: [CheckedContinuation<Outcome, Never>] = []
            var outcome: Outcome?
        }

        private let state = Mutex(State())

        func outcome() async -> Outcome {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Outcome? in
                    if state.outcome == nil { state.waiters.append(continuation) }
                    return state.outcome
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }

        func finish(_ outcome: Outcome) {
            let waiters = state.withLock { state in
                state.outcome = outcome
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: outcome) }
        }
    }
}

extension Result where Failure == any Error {
    fileprivate init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
