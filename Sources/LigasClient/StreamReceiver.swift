import Crypto
import Foundation
import LigasProtocol

/// Collects one stream's chunks into an `AsyncThrowingStream`, and checks the byte count and
/// SHA-256 of the end frame before finishing it: a caller never sees a corrupt image end well.
final class StreamReceiver: @unchecked Sendable {
    // Touched only on the connection's queue.
    private var hasher = SHA256()
    private var received: UInt64 = 0
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    let stream: AsyncThrowingStream<Data, any Error>

    init() {
        (stream, continuation) = AsyncThrowingStream.makeStream()
    }

    func receive(_ bytes: [UInt8]) {
        hasher.update(data: bytes)
        received += UInt64(bytes.count)
        continuation.yield(Data(bytes))
    }

    func finish(verifying end: StreamEnd) {
        guard end.totalBytes == received else {
            return finish(throwing: ClientError.integrityCheckFailed("received \(received) bytes, the daemon sent \(end.totalBytes)"))
        }
        guard Data(hasher.finalize()) == end.sha256 else {
            return finish(throwing: ClientError.integrityCheckFailed("SHA-256 mismatch"))
        }
        continuation.finish()
    }

    /// `nil` ends the stream quietly (a cancel: neither data nor error).
    func finish(throwing error: (any Error)?) {
        continuation.finish(throwing: error)
    }
}
