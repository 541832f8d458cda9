import Glibc

/// Bytes waiting to be written to a connection, as whole encoded frames, flushed with one
/// gathering `sendmsg` so a burst of frames costs one system call.
struct OutputQueue {
    private var pieces: [[UInt8]] = []
    private var head = 0
    /// Bytes of `pieces[head]` already written.
    private var headOffset = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        pieces.append(bytes)
        count += bytes.count
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
            // The arrays stay alive (and unmoved) in `pieces` for the duration of the call.
            for index in 0..<batch {
                let piece = pieces[head + index]
                let skip = index == 0 ? headOffset : 0
                piece.withUnsafeBytes { raw in
                    vectors[index] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip),
                        iov_len: raw.count - skip)
                }
            }
            // sendmsg, not writev: MSG_NOSIGNAL makes a vanished client an EPIPE error here rather
            // than a SIGPIPE that would kill whatever process hosts the server.
            var message = msghdr()
            message.msg_iov = vectors.baseAddress
            message.msg_iovlen = batch
            return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
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
