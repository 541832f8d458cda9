import Crypto
import Foundation
import LigasProtocol

/// One stream's chunks between the connection (which receives them on its queue) and the one
/// consumer that iterates them, with the byte count and SHA-256 of the end frame checked before
/// the stream ends well: a caller never sees a corrupt image end well.
///
/// The buffer is the connection's to bound (see `ClientConnection.highWater`): `receive` says how
/// many bytes it buffered, every byte that leaves the buffer, taken by the consumer or dropped
/// when the stream is abandoned, is reported through `onRelease`, and `onWait` says when the
/// consumer starts waiting with nothing buffered.
final class StreamReceiver: @unchecked Sendable {
    // Touched only on the connection's queue.
    private var hasher = SHA256()
    private var received: UInt64 = 0

    // Shared with the consumer, under `lock`.
    private let lock = NSLock()
    private var chunks: [Data] = []
    private var head = 0
    private var bufferedBytes = 0
    /// How the stream ends once the buffer is drained: nil while open; `.success` ends it quietly.
    private var ending: Result<Void, any Error>?
    private var endDelivered = false
    private var abandoned = false
    private var waiter: CheckedContinuation<Data?, any Error>?

    private let onRelease: @Sendable (Int) -> Void
    private let onWait: @Sendable () -> Void

    init(onRelease: @escaping @Sendable (Int) -> Void, onWait: @escaping @Sendable () -> Void) {
        self.onRelease = onRelease
        self.onWait = onWait
    }

    /// Whether the consumer is waiting for a chunk (so its buffer is empty).
    var consumerIsWaiting: Bool { lock.withLock { waiter != nil } }

    // MARK: - Producer (the connection's queue)

    /// Takes a chunk; returns how many bytes it added to the buffer (0 when a waiting consumer took
    /// it at once, or when the stream was abandoned).
    func receive(_ bytes: [UInt8]) -> Int {
        hasher.update(data: bytes)
        received += UInt64(bytes.count)
        let data = Data(bytes)
        let (handOff, added) = lock.withLock { () -> (CheckedContinuation<Data?, any Error>?, Int) in
            guard !abandoned, ending == nil else { return (nil, 0) }
            if let waiter {
                self.waiter = nil
                return (waiter, 0)
            }
            chunks.append(data)
            bufferedBytes += data.count
            return (nil, data.count)
        }
        handOff?.resume(returning: data)
        return added
    }

    func finish(verifying end: StreamEnd) {
        guard end.totalBytes == received else {
            return finish(throwing: ClientError.integrityCheckFailed("received \(received) bytes, the daemon sent \(end.totalBytes)"))
        }
        guard Data(hasher.finalize()) == end.sha256 else {
            return finish(throwing: ClientError.integrityCheckFailed("SHA-256 mismatch"))
        }
        finish(throwing: nil)
    }

    /// Ends the stream after what is buffered: with `error`, or quietly when it is nil.
    func finish(throwing error: (any Error)?) {
        let waiter = lock.withLock { () -> CheckedContinuation<Data?, any Error>? in
            guard ending == nil else { return nil }
            ending = error.map { .failure($0) } ?? .success(())
            guard head == chunks.count, let waiter = self.waiter else { return nil }
            self.waiter = nil
            endDelivered = true
            return waiter
        }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
    }

    /// The consumer is gone or cancelled: drop what is buffered (releasing it), take nothing more,
    /// and end the stream quietly. Idempotent.
    func abandon() {
        let (dropped, waiter) = lock.withLock { () -> (Int, CheckedContinuation<Data?, any Error>?) in
            abandoned = true
            if ending == nil { ending = .success(()) }
            let dropped = bufferedBytes
            chunks.removeAll()
            head = 0
            bufferedBytes = 0
            let waiter = self.waiter
            self.waiter = nil
            return (dropped, waiter)
        }
        if dropped > 0 { onRelease(dropped) }
        waiter?.resume(returning: nil)
    }

    // MARK: - Consumer

    /// The next chunk, waiting for one; nil at the end, or at once when the task is cancelled.
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                let outcome = lock.withLock { () -> Result<Data?, any Error>? in
                    precondition(waiter == nil, "an image download has one consumer")
                    if head < chunks.count {
                        let chunk = chunks[head]
                        chunks[head] = Data()
                        head += 1
                        if head == chunks.count || head > 64 {
                            chunks.removeFirst(head)
                            head = 0
                        }
                        bufferedBytes -= chunk.count
                        return .success(chunk)
                    }
                    if let ending {
                        guard !endDelivered else { return .success(nil) }
                        endDelivered = true
                        switch ending {
                        case .success: return .success(nil)
                        case .failure(let error): return .failure(error)
                        }
                    }
                    if Task.isCancelled { return .success(nil) }
                    waiter = continuation
                    return nil
                }
                guard let outcome else { return onWait() }
                if case .success(let chunk?) = outcome { onRelease(chunk.count) }
                continuation.resume(with: outcome)
            }
        } onCancel: {
            let waiter = lock.withLock { () -> CheckedContinuation<Data?, any Error>? in
                defer { self.waiter = nil }
                return self.waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
