import FoundationEssentials
import Glibc

/// Bytes waiting to be written to a connection, as whole encoded frames (or a chunk frame's head
/// followed by the chunk's own storage: stream bytes are never copied into a frame), flushed with
/// one gathering `sendmsg` so a burst of frames costs one system call.
struct OutputQueue {
    private enum Piece {
        case bytes([UInt8])
        case data(Data)

        var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .data(let data): data.count
            }
        }

        func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
            switch self {
            case .bytes(let bytes): bytes.withUnsafeBytes(body)
            case .data(let data): data.withUnsafeBytes(body)
            }
        }
    }

    private var pieces: [Piece] = []
    private var head = 0
    /// Bytes of `pieces[head]` already written.
    private var headOffset = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        pieces.append(.bytes(bytes))
        count += bytes.count
    }

    /// Queues `data` as it is, to be sent from its own storage.
    mutating func append(_ data: Data) {
        guard !data.isEmpty else { return }
        pieces.append(.data(data))
        count += data.count
    }

    enum FlushResult: Equatable {
        case drained
        case wouldBlock
        case failed(errno: Int32)
    }

    /// Writes as much as the socket takes without blocking.
    mutating func flush(to fd: Int32) -> FlushResult {
        while count > 0 {
            let written = writeSome(to: fd)
            if written < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .wouldBlock
                default: return .failed(errno: errno)
                }
            }
            consume(written)
        }
        return .drained
    }

    private func writeSome(to fd: Int32) -> Int {
        let batch = min(pieces.count - head, 64)
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: batch) { vectors in
            pointing(vectors, at: 0, of: batch) {
                // sendmsg, not writev: MSG_NOSIGNAL makes a vanished client an EPIPE error here
                // rather than a SIGPIPE that would kill whatever process hosts the server.
                var message = msghdr()
                message.msg_iov = vectors.baseAddress
                message.msg_iovlen = batch
                return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
            }
        }
    }

    /// Fills `vectors[index...]` with the next pieces, then sends. Recursive because each piece's
    /// bytes are only pinned inside its own `withUnsafeBytes`, and all must be at once.
    private func pointing(_ vectors: UnsafeMutableBufferPointer<iovec>, at index: Int, of batch: Int, send: () -> Int) -> Int {
        guard index < batch else { return send() }
        return pieces[head + index].withUnsafeBytes { raw in
            let skip = index == 0 ? headOffset : 0
            vectors[index] = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip), iov_len: raw.count - skip)
            return pointing(vectors, at: index + 1, of: batch, send: send)
        }
    }

    private mutating func consume(_ written: Int) {
        var remaining = written
        count -= written
        while remaining > 0 {
            let left = pieces[head].count - headOffset
            if remaining >= left {
                remaining -= left
                head += 1
                headOffset = 0
            } else {
                headOffset += remaining
                remaining = 0
            }
        }
        if head == pieces.count {
            pieces.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 {
            pieces.removeFirst(head)
            head = 0
        }
    }
}
