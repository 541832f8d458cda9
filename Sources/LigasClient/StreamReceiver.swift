import FoundationEssentials
import LigasProtocol
import Synchronization

/// One stream's chunks between the connection (which receives them on its queue) and the one
/// consumer that iterates them, with the byte count and SHA-256 of the end frame checked before
/// the stream ends well: a caller never sees a corrupt image end well.
///
/// The consumer hashes each chunk as it takes it, so the hashing runs on the consumer's thread
/// while the connection's thread reads the next chunks from the socket: the two overlap instead
/// of adding up.
///
/// The buffer is the connection's to bound (see `ClientConnection.highWater`): `receive` says how
/// many bytes it buffered, every byte that leaves the buffer, taken by the consumer or dropped
/// when the stream is abandoned, is reported through `onRelease`, and `onWait` says when the
/// consumer starts waiting with nothing buffered.
final class StreamReceiver: @unchecked Sendable {
    // Touched only by the consumer (one task at a time).
    /// Made by the consumer when it takes the first chunk, not with the stream (which the reader
    /// thread opens): the first one in the process loads libcrypto. Nil when libcrypto is
    /// missing: the stream then cannot end well.
    private lazy var hasher: SHA256? = SHA256()
    private var consumed: UInt64 = 0
    /// Reads the socket on the consumer's thread until the first chunk is in, before the consumer
    /// first waits (see `ClientConnection.stream`); nil when the reader thread reads it all. Set
    /// before the consumer has the receiver.
    private var readFirstChunk: (@Sendable (StreamReceiver) -> Void)?

    // Shared with the consumer, under `lock`.
    private let lock = Mutex(())
    private var chunks: [Data] = []
    private var head = 0
    private var bufferedBytes = 0
    /// How the stream ends once the buffer is drained: nil while open; `.success` ends it quietly.
    private var ending: Result<Void, any Error>?
    /// The daemon's end frame, checked by the consumer once it has taken (and hashed) every chunk.
    private var expectedEnd: StreamEnd?
    private var endDelivered = false
    private var abandoned = false
    private var waiter: CheckedContinuation<Taken, any Error>?

    private let onRelease: @Sendable (Int) -> Void
    private let onWait: @Sendable () -> Void

    init(
        onRelease: @escaping @Sendable (Int) -> Void, onWait: @escaping @Sendable () -> Void,
        readFirstChunk: (@Sendable (StreamReceiver) -> Void)? = nil
    ) {
        self.onRelease = onRelease
        self.onWait = onWait
        self.readFirstChunk = readFirstChunk
    }

    /// Whether the consumer is waiting for a chunk (so its buffer is empty).
    var consumerIsWaiting: Bool { lock.withLock { _ in waiter != nil } }

    /// Whether the consumer would find nothing to take: no chunk buffered, and no end.
    var isEmpty: Bool { lock.withLock { _ in head == chunks.count && ending == nil } }

    // MARK: - Producer (the connection's queue)

    /// Takes a chunk; returns how many bytes it added to the buffer (0 when a waiting consumer took
    /// it at once, or when the stream was abandoned).
    func receive(_ bytes: [UInt8]) -> Int {
        let data = Self.data(sharing: bytes)
        let (handOff, added) = lock.withLock { _ -> (CheckedContinuation<Taken, any Error>?, Int) in
            guard !abandoned, ending == nil else { return (nil, 0) }
            if let waiter {
                self.waiter = nil
                return (waiter, 0)
            }
            chunks.append(data)
            bufferedBytes += data.count
            return (nil, data.count)
        }
        handOff?.resume(returning: .chunk(data))
        return added
    }

    /// The end frame arrived: the stream ends once the consumer has taken every chunk, well if
    /// they add up to this byte count and digest.
    func finish(verifying end: StreamEnd) {
        lock.withLock { _ in expectedEnd = end }
        finish(throwing: nil)
    }

    /// The consumer's end of a stream that ended well on the wire: checked against the end frame.
    private func verified() -> Result<Data?, any Error> {
        guard let end = lock.withLock({ _ in expectedEnd }) else { return .success(nil) }
        guard end.totalBytes == consumed else {
            return .failure(ClientError.integrityCheckFailed("received \(consumed) bytes, the daemon sent \(end.totalBytes)"))
        }
        guard let hasher else {
            return .failure(ClientError.integrityCheckFailed(
                "cannot check the SHA-256: \(LibCrypto.soname) (Debian's libssl3) cannot be loaded"))
        }
        guard Data(hasher.finalize()) == end.sha256 else {
            return .failure(ClientError.integrityCheckFailed("SHA-256 mismatch"))
        }
        return .success(nil)
    }

    /// Ends the stream after what is buffered: with `error`, or quietly when it is nil.
    func finish(throwing error: (any Error)?) {
        let (waiter, end) = lock.withLock { _ -> (CheckedContinuation<Taken, any Error>?, Taken) in
            let end: Taken = expectedEnd != nil && !abandoned ? .endOfStream : .quiet
            guard ending == nil else { return (nil, end) }
            ending = error.map { .failure($0) } ?? .success(())
            guard head == chunks.count, let waiter = self.waiter else { return (nil, end) }
            self.waiter = nil
            endDelivered = true
            return (waiter, end)
        }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: end) }
    }

    /// The consumer is gone or cancelled: drop what is buffered (releasing it), take nothing more,
    /// and end the stream quietly. Idempotent.
    func abandon() {
        let (dropped, waiter) = lock.withLock { _ -> (Int, CheckedContinuation<Taken, any Error>?) in
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
        waiter?.resume(returning: .quiet)
    }

    // MARK: - Consumer

    /// The next chunk, waiting for one; nil at the end, or at once when the task is cancelled.
    /// Hashed here, on the consumer's side; at the end, checked against the daemon's end frame.
    func next() async throws -> Data? {
        if let readFirstChunk {
            self.readFirstChunk = nil
            readFirstChunk(self)  // even with a chunk in already: it hands the rest to the reader thread
        }
        switch try await take() {
        case .chunk(let chunk):
            hasher?.update(data: chunk)
            consumed += UInt64(chunk.count)
            return chunk
        case .endOfStream:
            return try verified().get()
        case .quiet:
            return nil
        }
    }

    private enum Taken {
        case chunk(Data)
        /// The daemon's end frame came and every chunk before it was taken.
        case endOfStream
        /// Cancelled or abandoned: nothing more, and nothing to check.
        case quiet
    }

    private func take() async throws -> Taken {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Taken, any Error>) in
                let outcome = lock.withLock { _ -> Result<Taken, any Error>? in
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
                        return .success(.chunk(chunk))
                    }
                    if let ending {
                        guard !endDelivered else { return .success(.quiet) }
                        endDelivered = true
                        switch ending {
                        case .success: return .success(expectedEnd != nil && !abandoned ? .endOfStream : .quiet)
                        case .failure(let error): return .failure(error)
                        }
                    }
                    if Task.isCancelled { return .success(.quiet) }
                    waiter = continuation
                    return nil
                }
                guard let outcome else { return onWait() }
                if case .success(.chunk(let chunk)) = outcome { onRelease(chunk.count) }
                continuation.resume(with: outcome)
            }
        } onCancel: {
            let waiter = lock.withLock { _ -> CheckedContinuation<Taken, any Error>? in
                defer { self.waiter = nil }
                return self.waiter
            }
            waiter?.resume(returning: .quiet)
        }
    }

    /// `bytes` as `Data` without copying them: the `Data` points at the array's storage and keeps
    /// the array alive until it goes (an array's storage does not move while nothing mutates it,
    /// and nothing can: the only reference left is the deallocator's). A chunk is a quarter MiB;
    /// copying each one again was a good part of a download's CPU.
    static func data(sharing bytes: [UInt8]) -> Data {
        guard !bytes.isEmpty else { return Data() }
        return bytes.withUnsafeBufferPointer { buffer in
            Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: buffer.baseAddress!), count: buffer.count,
                deallocator: .custom { _, _ in withExtendedLifetime(bytes) {} })
        }
    }
}
