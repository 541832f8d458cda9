import LigasDomain

/// Concurrent loads of the same key share one underlying load (one remote fetch, one save).
///
/// The shared work runs in its own task, so one caller being cancelled does not cancel the
/// load for the others who wait on it.
public final class SingleFlightLoader<Key: Hashable & Sendable, Value: Sendable>: Loader {
    private let decoratee: any Loader<Key, Value>
    private let flights = Flights()

    public init(decoratee: any Loader<Key, Value>) {
        self.decoratee = decoratee
    }

    public func load(_ key: Key) async throws -> Loaded<Value> {
        let task = await flights.task(for: key) { [decoratee] in try await decoratee.load(key) }
        defer { Task { await flights.finish(key, task) } }
        return try await task.value
    }

    /// How many callers have joined the current flight for `key` (0 when none is in flight).
    func callersInFlight(for key: Key) async -> Int {
        await flights.callers[key] ?? 0
    }

    private actor Flights {
        private var inFlight: [Key: Task<Loaded<Value>, any Error>] = [:]
        private(set) var callers: [Key: Int] = [:]

        func task(
            for key: Key, _ operation: @escaping @Sendable () async throws -> Loaded<Value>
        ) -> Task<Loaded<Value>, any Error> {
            callers[key, default: 0] += 1
            if let task = inFlight[key] { return task }
            let task = Task.detached(operation: operation)
            inFlight[key] = task
            return task
        }

        /// Forgets a finished flight; the next load of its key starts a new one.
        func finish(_ key: Key, _ task: Task<Loaded<Value>, any Error>) {
            if inFlight[key] == task {
                inFlight[key] = nil
                callers[key] = nil
            }
        }
    }
}
