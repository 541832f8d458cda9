import Foundation
import Glibc
import LigasProtocol
import LigasTestSupport

/// A client socket that speaks bytes, not the library's API: for hand-built (and hostile)
/// frames. Blocking, so it is only ever used off the Swift concurrency pool (`offThePool`).
/// Everything the daemon sends back goes through a `FrameDecoder`, so a
/// malformed frame from the daemon is caught.
final class RawConnection: @unchecked Sendable {
    let fd: Int32
    /// Takes what `Hello(agent:)` announces.
    private var decoder = FrameDecoder(maxFrameSize: ProtocolLimits.defaultClientMaxFrameSize)
    private(set) var closedByPeer = false
    /// The daemon sent bytes that do not decode as frames (a protocol violation on its side).
    private(set) var malformed: String?

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to `path`; `receiveBuffer` shrinks SO_RCVBUF first (a slow reader's socket).
    init(path: String, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failed(description: "socket: errno \(errno)") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let connected = (try? UnixSocket.withAddress(path) { connect(fd, $0, $1) }) ?? -1
        guard connected == 0 else {
            let code = errno
            Glibc.close(fd)
            throw Failed(description: "connect \(path): errno \(code)")
        }
    }

    deinit { Glibc.close(fd) }

    /// Writes everything; false if the daemon has closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Waits up to `timeout` for bytes; feeds them to the decoder. Returns false on timeout.
    @discardableResult
    func receive(timeout: Duration, maxBytes: Int = 256 << 10) -> Bool {
        guard !closedByPeer else { return false }
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: Int64(timeout.seconds * 1000))
        guard poll(&waiting, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: maxBytes)
        let count = recv(fd, &buffer, maxBytes, 0)
        if count > 0 {
            decoder.append(buffer[0..<count])
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            closedByPeer = true
        }
        return true
    }

    /// The next complete frame, waiting up to `timeout`; nil on timeout or close.
    func nextFrame(timeout: Duration) -> Frame? {
        let deadline = ContinuousClock.now + timeout
        while malformed == nil {
            do {
                if let frame = try decoder.nextFrame() {
                    do throws(ErrorBody) {
                        _ = try Message(frame: frame)
                    } catch {
                        malformed = "undecodable \(frame.kind) payload: \(error)"
                        return nil
                    }
                    return frame
                }
            } catch {
                malformed = "\(error)"
                return nil
            }
            let left = deadline - ContinuousClock.now
            guard !closedByPeer, left > .zero else { return nil }
            receive(timeout: left)
        }
        return nil
    }

    /// Every frame until the daemon closes or stays silent for `quiet`.
    func drain(quiet: Duration) -> [Frame] {
        var frames: [Frame] = []
        while let frame = nextFrame(timeout: quiet) { frames.append(frame) }
        return frames
    }

    /// Says hello and waits for the daemon's.
    func handshake(timeout: Duration = .seconds(10)) throws {
        var bytes: [UInt8] = []
        try FrameEncoder().appendHello(Hello(agent: "ligas-stress-raw"), to: &bytes)
        guard send(bytes) else { throw Failed(description: "hello: connection closed") }
        guard let reply = nextFrame(timeout: timeout), reply.kind == .hello else {
            throw Failed(description: "no hello from ligasd (\(malformed ?? (closedByPeer ? "closed" : "timed out")))")
        }
    }

    func close() { shutdown(fd, Int32(SHUT_RDWR)) }
}
