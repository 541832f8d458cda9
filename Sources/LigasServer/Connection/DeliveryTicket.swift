import Synchronization

/// How a stream frame went, known once the connection's queue has handled it (see
/// `Connection.sendStreamFrame`). A stream starts a frame, reads its next chunk, and only then
/// asks: by then the answer is most often in, and the stream's task goes on without suspending,
/// so a chunk costs one hop (to the queue) instead of two, and the cache read overlaps the write.
final class DeliveryTicket: Sendable {
    private struct State {
        var delivery: AnswerDelivery?
        var waiter: CheckedContinuation<AnswerDelivery, Never>?
    }

    private let state = Mutex(State())

    /// Called once, on the connection's queue.
    func resolve(_ delivery: AnswerDelivery) {
        let waiter = state.withLock { state in
            precondition(state.delivery == nil, "a frame is delivered once")
            state.delivery = delivery
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: delivery)
    }

    /// How the frame went, waiting for it if the queue has not handled it yet. One caller.
    var delivery: AnswerDelivery {
        get async {
            if let delivery = state.withLock({ $0.delivery }) { return delivery }
            return await withCheckedContinuation { continuation in
                let delivery = state.withLock { state in
                    precondition(state.waiter == nil, "one caller waits for a ticket")
                    if state.delivery == nil { state.waiter = continuation }
                    return state.delivery
                }
                if let delivery { continuation.resume(returning: delivery) }
            }
        }
    }
}
