import Synchronization

/// Counts the calls in flight over a set of connections (the whole process, unless a test says
/// otherwise), so that a call can tell whether it is alone: only then may it wait for its answer
/// on its own thread (see `ClientConnection.call`).
final class CallsInFlight: Sendable {
    static let process = CallsInFlight()
    private let count = Atomic(0)

    /// Counts a call in; returns whether it is the only one in flight.
    func enter() -> Bool {
        count.add(1, ordering: .relaxed).oldValue == 0
    }

    func leave() {
        count.subtract(1, ordering: .relaxed)
    }
}
