import Foundation
import LigasProtocol
import LigasServer
import LigasTestSupport
import Testing

/// Rules of PROTOCOL.md checked against a real server on a real socket: invalid hellos,
/// invalid UTF-8 the server does not decode, frames a client may not send, the in-flight
/// slot of a cancelled request, and the default timeouts the spec promises.
@Suite("Server: protocol rules")
struct ProtocolRulesTests {
    /// A payload with one more map entry, `"x": <text with bytes C3 28>`, appended.
    static func withInvalidUTF8Entry(_ payload: [UInt8]) -> [UInt8] {
        precondition(payload[0] >= 0xA0 && payload[0] < 0xB7, "a map with fewer than 23 entries")
        return [payload[0] + 1] + payload.dropFirst() + [0x61, 0x78, 0x62, 0xC3, 0x28]
    }

    static let outOfRangeHellos: [(maxFrameSize: UInt32, chunkSize: UInt32, field: String)] = [
        (100, 65_536, "maxFrameSize"), (4095, 65_536, "maxFrameSize"), (1 << 20, 0, "chunkSize"),
    ]

    @Test("A hello with limits out of range: badFrame on id 0 naming the field, then close", arguments: outOfRangeHellos.indices)
    func helloOutOfRange(index: Int) async throws {
        let (maxFrameSize, chunkSize, field) = Self.outOfRangeHellos[index]
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            try client.send {
                try $0.appendHello(Hello(maxFrameSize: maxFrameSize, chunkSize: chunkSize, agent: "raw-test"), to: &$1)
            }
            let frames = try await client.framesUntilClosed()
            #expect(frames.count == 1)
            #expect(frames.first?.requestID == 0)
            let body = try frames.first.flatMap(errorBody)
            #expect(body?.code == .badFrame)
            #expect(body?.details?["path"] == field)
        }
    }

    @Test("A hello with invalid UTF-8 under an unknown key: badFrame on id 0, then close")
    func helloWithInvalidUTF8() async throws {
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            let payload = Self.withInvalidUTF8Entry(try CBOREncoder().encode(Hello(agent: "raw-test")))
            try client.send { try $0.appendRaw(.hello, requestID: 0, bytes: payload, to: &$1) }
            let frames = try await client.framesUntilClosed()
            #expect(frames.count == 1)
            #expect(frames.first?.requestID == 0)
            #expect(try frames.first.flatMap(errorBody)?.code == .badFrame)
        }
    }

    @Test("A request with invalid UTF-8 under an unknown key: badRequest with details.offset; the connection stays open")
    func requestWithInvalidUTF8() async throws {
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            let payload = Self.withInvalidUTF8Entry(try CBOREncoder().encode(Request(Call(Methods.Ping.self))))
            try client.send { try $0.appendRaw(.request, requestID: 4, bytes: payload, to: &$1) }
            let reply = try #require(await client.nextFrame())
            #expect(reply.requestID == 4)
            let body = try errorBody(reply)
            #expect(body?.code == .badRequest)
            #expect(body?.details == ["offset": "\(payload.count - 2)"])
            try client.request(5, Call(Methods.Ping.self))
            #expect(try await client.nextFrame()?.kind == .response)
        }
    }

    @Test("A second hello after the handshake: badFrame on id 0, then close")
    func secondHello() async throws {
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.send { try $0.appendHello(Hello(agent: "raw-test"), to: &$1) }
            let frames = try await client.framesUntilClosed()
            #expect(frames.map(\.requestID) == [0])
            #expect(try frames.first.flatMap(errorBody)?.code == .badFrame)
        }
    }

    @Test("The streamFollows flag on a request: badFrame on id 0, then close")
    func streamFollowsOnRequest() async throws {
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            var frame: [UInt8] = []
            try client.encoder.appendRequest(id: 1, Request(Call(Methods.Ping.self)), to: &frame)
            frame[7] |= 0x01 // flags are bytes 6-7: set bit 0, streamFollows
            client.send(frame)
            let frames = try await client.framesUntilClosed()
            #expect(frames.map(\.requestID) == [0])
            #expect(try frames.first.flatMap(errorBody)?.code == .badFrame)
        }
    }

    @Test("A cancelled request frees its in-flight slot as soon as the server reads the cancel")
    func cancelFreesSlot() async throws {
        var limits = ServerLimits()
        limits.maxInFlightPerConnection = 1
        let handler = ScriptedHandler()
        try await TestServer.run(limits: limits, handler: handler) { server in
            let client = try RawClient(path: server.path)
            #expect(try await client.hello().maxInFlight == 1)
            try client.request(1, Call(Methods.Teams.self, TeamsArguments(league: "slow")))
            try client.send { try $0.appendCancel(id: 1, to: &$1) }
            try client.request(2, Call(Methods.Ping.self)) // would be tooManyRequests if request 1 still held the slot
            let reply = try #require(await client.nextFrame())
            #expect(reply.requestID == 2)
            #expect(reply.kind == .response)
            handler.gate.open()
        }
    }

    @Test("The default limits and timeouts in PROTOCOL.md §8 are the server's defaults")
    func documentedDefaults() throws {
        let spec = try String(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/PROTOCOL.md"), encoding: .utf8)
        let defaults = ServerLimits()
        #expect(defaults.handshakeTimeout == .seconds(5))
        #expect(defaults.idleConnectionTimeout == .seconds(300))
        #expect(spec.contains("| handshake timeout | — | 5 s |"))
        #expect(spec.contains("| idle timeout | — | 300 s |"))
        #expect(spec.contains("| `maxFrameSize` | each side's `hello` | ligasd 1 MiB (\(defaults.maxFrameSize)); the Swift client 16 MiB (\(ProtocolLimits.defaultClientMaxFrameSize)) |"))
        #expect(spec.contains("| `maxInFlight` | server `hello` | \(defaults.maxInFlightPerConnection) |"))
        #expect(spec.contains("| `chunkSize` | both `hello`s | \(defaults.chunkSize) ("))
        #expect(Hello(agent: "test").chunkSize == UInt32(defaults.chunkSize), "the Swift client asks for the same")
    }
}
