import Foundation
import LigasProtocol
import LigasServer
import LigasTestSupport
import Testing

@Suite("Server: handshake and bad frames")
struct HandshakeAndFramingTests {
    @Test("Hello is answered with the chosen version and the server's limits; ping round-trips")
    func helloAndPing() async throws {
        var limits = ServerLimits()
        limits.maxInFlightPerConnection = 7
        try await TestServer.run(limits: limits) { server in
            let client = try RawClient(path: server.path)
            let hello = try await client.hello()
            #expect(hello.versions == [1])
            #expect(hello.maxInFlight == 7)
            #expect(hello.maxFrameSize == UInt32(limits.maxFrameSize))

            try client.request(1, Call(Methods.Ping.self))
            #expect(try await client.nextMessage() == .response(id: 1, payload: try CBOREncoder().encode(PingResult())))
        }
    }

    @Test("A first frame other than hello: badFrame on request id 0, then close")
    func requestBeforeHello() async throws {
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            try client.request(1, Call(Methods.Ping.self))
            let frames = try await client.framesUntilClosed()
            #expect(frames.count == 1)
            #expect(try errorBody(frames[0])?.code == .badFrame)
            #expect(frames[0].requestID == 0)
        }
    }

    @Test("An oversized length prefix: frameTooLarge, then close, without waiting for the bytes")
    func oversizedLength() async throws {
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            client.send([0x7F, 0xFF, 0xFF, 0xFF, 1, 2, 0, 0, 0, 0, 0, 1])
            let frames = try await client.framesUntilClosed()
            #expect(try frames.map { try errorBody($0)?.code } == [.frameTooLarge])
        }
    }

    @Test("Garbage bytes: badFrame, then close", arguments: [
        [UInt8](repeating: 0, count: 12), Array("GET / HTTP/1.1\r\n\r\n".utf8), [0, 0, 0, 8, 1, 0x99, 0, 0, 0, 0, 0, 0],
    ])
    func garbage(bytes: [UInt8]) async throws {
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            client.send(bytes)
            let frames = try await client.framesUntilClosed()
            #expect(frames.count == 1)
            #expect(try [ErrorCode.badFrame, .frameTooLarge].contains(errorBody(frames[0])?.code))
        }
    }

    @Test("A frame header of another version: unsupportedVersion without details, then close")
    func wrongVersion() async throws {
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            var frame: [UInt8] = []
            try FrameEncoder(version: 9).appendHello(Hello(agent: "future"), to: &frame)
            client.send(frame)
            let frames = try await client.framesUntilClosed()
            #expect(try frames.map { try errorBody($0)?.code } == [.unsupportedVersion])
            #expect(try frames.first.flatMap { try errorBody($0)?.details } == nil)
        }
    }

    @Test("A hello offering no common version, or none at all: unsupportedVersion with details.supported, then close",
          arguments: [[7, 8], []] as [[UInt8]])
    func noCommonVersion(versions: [UInt8]) async throws {
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            try client.send { try $0.appendHello(Hello(versions: versions, agent: "future"), to: &$1) }
            let frames = try await client.framesUntilClosed()
            #expect(try frames.map { try errorBody($0)?.code } == [.unsupportedVersion])
            #expect(try frames.first.flatMap { try errorBody($0)?.details } == ["supported": "1"])
        }
    }

    @Test("A client that never says hello is dropped after the handshake timeout, with a named error, and logged as breaking the protocol")
    func handshakeTimeout() async throws {
        var limits = ServerLimits()
        limits.handshakeTimeout = .milliseconds(100)
        let log = LogRecorder()
        try await TestServer.run(limits: limits, logger: log.logger) { server in
            let client = try RawClient(path: server.path)
            let frames = try await client.framesUntilClosed()
            #expect(try frames.map { try errorBody($0)?.code } == [.deadlineExceeded])
        }
        #expect(log.all.contains { $0.message == "client protocol error" && $0.level == .notice })
    }

    @Test("An idle connection is closed after the idle timeout, with a named error, logged at debug and not as a client breaking the protocol")
    func idleTimeout() async throws {
        var limits = ServerLimits()
        limits.idleConnectionTimeout = .milliseconds(100)
        let log = LogRecorder()
        try await TestServer.run(limits: limits, logger: log.logger) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            let frames = try await client.framesUntilClosed()
            #expect(try frames.map { try errorBody($0)?.code } == [.deadlineExceeded])
        }
        #expect(log.all.contains { $0.message == "idle connection closed" && $0.level == .debug })
        #expect(!log.all.contains { $0.message == "client protocol error" })
    }
}

func errorBody(_ frame: Frame) throws -> ErrorBody? {
    guard case .error(_, let body) = try Message(frame: frame) else { return nil }
    return body
}
