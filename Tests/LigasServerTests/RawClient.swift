import Dispatch
import Foundation
import Glibc
import LigasProtocol
import LigasTestSupport

/// A deliberately low-level test client: a blocking Unix socket that sends arbitrary bytes and
/// reads frames with a time limit, so tests can speak the protocol correctly or not at all.
///
/// Blocking reads run on the client's own Dispatch queue, never on Swift's cooperative pool,
/// which the server under test needs for its request tasks.
final class RawClient: @unchecked Sendable {
    private let io = DispatchQueue(label: "raw-client")
    let fd: Int32
    private var decoder = FrameDecoder(maxFrameSize: 64 << 20)
    let encoder = FrameEncoder(maxFrameSize: 64 << 20)

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let result = try UnixSocket.withAddress(path) { connect(fd, $0, $1) }
        guard result == 0 else { throw RawClientError.connect(errno) }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// `shutdown(SHUT_WR)`: no more bytes from this side (what socat does after its input ends);
    /// reading goes on.
    func shutdownWrite() {
        Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// `shutdown(SHUT_RDWR)`: to the server, the same as a client that closed its socket (the
    /// descriptor itself is closed with the client).
    func hangUp() {
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    /// A request for a method no server knows, "transfer": a payload that does not decode.
    func requestUnknownMethod(_ id: UInt32) throws {
        var payload: [UInt8] = []
        try CBOREncoder().encode(["method": "transfer", "cache": "default"], into: &payload)
        try send { try $0.appendRaw(.request, requestID: id, bytes: payload, to: &$1) }
    }

    func send(_ build: (FrameEncoder, inout [UInt8]) throws -> Void) rethrows {
        var bytes: [UInt8] = []
        try build(encoder, &bytes)
        send(bytes)
    }

    func hello(maxFrameSize: UInt32 = 1 << 20, chunkSize: UInt32 = 64 << 10) async throws -> Hello {
        try send { try $0.appendHello(Hello(maxFrameSize: maxFrameSize, chunkSize: chunkSize, agent: "raw-test"), to: &$1) }
        guard case .hello(let reply) = try await nextMessage() else { throw RawClientError.unexpected("no hello") }
        return reply
    }

    func request(_ id: UInt32, _ call: Call, deadlineMs: UInt32? = nil) throws {
        try send { try $0.appendRequest(id: id, Request(call, deadlineMs: deadlineMs), to: &$1) }
    }

    /// The next frame, or nil if the server closed the connection. Fails after `timeout`
    /// rather than hanging the suite (a bound, not a timing assertion).
    func nextFrame(timeout: Int32 = 10_000) async throws -> Frame? {
        try await withCheckedThrowingContinuation { continuation in
            io.async { continuation.resume(with: Result { try self.blockingNextFrame(timeout: timeout) }) }
        }
    }

    private func blockingNextFrame(timeout: Int32) throws -> Frame? {
        while true {
            if let frame = try decoder.nextFrame() { return frame }
            var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pending, 1, timeout) == 1 else { throw RawClientError.timedOut }
            var buffer = [UInt8](repeating: 0, count: 256 << 10)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            decoder.append(buffer[0..<count])
        }
    }

    func nextMessage() async throws -> Message? {
        guard let frame = try await nextFrame() else { return nil }
        return try Message(frame: frame)
    }

    /// A whole stream of request `id`: its header, each chunk's size, the bytes, and its end.
    /// Anything else that comes is an error.
    func stream(_ id: UInt32) async throws -> (header: StreamHeader, chunkSizes: [Int], bytes: Data, end: StreamEnd) {
        guard case .streamStart(id, let header) = try await nextMessage() else { throw RawClientError.unexpected("no header") }
        var bytes = Data()
        var chunkSizes: [Int] = []
        while let message = try await nextMessage() {
            switch message {
            case .streamChunk(id, let chunk): bytes.append(contentsOf: chunk); chunkSizes.append(chunk.count)
            case .streamEnd(id, let end): return (header, chunkSizes, bytes, end)
            default: throw RawClientError.unexpected("\(message)")
            }
        }
        throw RawClientError.unexpected("closed mid-stream")
    }

    /// Reads until the server closes; returns what came before.
    func framesUntilClosed() async throws -> [Frame] {
        var frames: [Frame] = []
        while let frame = try await nextFrame() { frames.append(frame) }
        return frames
    }
}

enum RawClientError: Error {
    case connect(Int32)
    case timedOut
    case unexpected(String)
}
