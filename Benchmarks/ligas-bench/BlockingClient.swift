import Foundation
import Glibc
import LigasProtocol
import LigasTestSupport

/// A minimal blocking client on a plain socket: one request at a time, no Dispatch, no tasks.
/// It shows what the daemon itself costs (the LigasClient figures add the library's own cost),
/// and it can read as slowly as a test needs, which an event-driven client cannot.
/// `@unchecked Sendable`: handed to one thread, which alone uses it.
final class BlockingClient: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let fd: Int32
    /// Takes what `Hello(agent:)` announces.
    private var decoder = FrameDecoder(maxFrameSize: ProtocolLimits.defaultClientMaxFrameSize)
    private let encoder = FrameEncoder()
    private var nextID: UInt32 = 1
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    init(socketPath: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        let connected = (try? UnixSocket.withAddress(socketPath) { connect(fd, $0, $1) }) ?? -1
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect \(socketPath): errno \(code)")
        }
        var hello: [UInt8] = []
        try encoder.appendHello(Hello(agent: "ligas-bench"), to: &hello)
        try write(hello)
        guard case .hello = try nextMessage() else { throw Failure(description: "no hello reply") }
    }

    deinit { close(fd) }

    /// Sends `call` and returns the response payload (CBOR).
    func call(_ call: Call) throws -> [UInt8] {
        let id = try send(call)
        switch try nextMessage() {
        case .response(id, let payload): return payload
        case .error(_, let body): throw Failure(description: "\(body.code): \(body.message)")
        case let other: throw Failure(description: "unexpected \(other)")
        }
    }

    /// Streams an image to the end; `pause` runs after every read (a slow reader sleeps there).
    /// Returns the byte count.
    func download(_ image: ImageArguments, readSize: Int = 64 << 10, pause: () -> Void = {}) throws -> Int {
        let id = try send(Call(Methods.Image.self, image))
        guard case .streamStart(id, _) = try nextMessage(readSize: readSize, pause: pause) else {
            throw Failure(description: "no stream header")
        }
        var bytes = 0
        while true {
            switch try nextMessage(readSize: readSize, pause: pause) {
            case .streamChunk(id, let chunk): bytes += chunk.count
            case .streamEnd(id, let end):
                guard end.totalBytes == UInt64(bytes) else { throw Failure(description: "short stream") }
                return bytes
            case let other: throw Failure(description: "unexpected \(other)")
            }
        }
    }

    private func send(_ call: Call) throws -> UInt32 {
        let id = nextID
        nextID += 1
        var bytes: [UInt8] = []
        try encoder.appendRequest(id: id, Request(call), to: &bytes)
        try write(bytes)
        return id
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a daemon gone (a bench of one that never starts) is an error, not SIGPIPE
            // killing the bench before it can say where its logs are.
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Failure(description: "write: errno \(errno)") }
            offset += written
        }
    }

    private func nextMessage(readSize: Int = 64 << 10, pause: () -> Void = {}) throws -> Message {
        while true {
            if let frame = try decoder.nextFrame() { return try Message(frame: frame) }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, min(readSize, $0.count)) }
            guard count > 0 else { throw Failure(description: count == 0 ? "daemon closed the connection" : "read: errno \(errno)") }
            buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            pause()
        }
    }
}
