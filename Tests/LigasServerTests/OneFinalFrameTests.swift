import Crypto
import Foundation
import LigasClient
import LigasProtocol
import LigasServer
import LigasTestSupport
import Testing

/// PROTOCOL.md §6: each request ends with exactly one final frame, whatever the answer's size,
/// however the client ends its side, and when the daemon stops.
@Suite("Server: every request ends with one final frame")
struct OneFinalFrameTests {
    @Test("An answer larger than the client's maxFrameSize: resultTooLarge with its id is its only final frame; the connection goes on")
    func resultTooLarge() async throws {
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello(maxFrameSize: 4096)
            try client.request(1, Call(Methods.Describe.self))

            let answer = try #require(await client.nextFrame())
            #expect(answer.requestID == 1)
            let body = try #require(try errorBody(answer))
            #expect(body.code == .resultTooLarge)
            #expect(body.details?["maxFrameSize"] == "4096")
            #expect(Int(body.details?["bytes"] ?? "").map { $0 > 4096 } == true)

            // The next frame answers a later request: nothing else came for id 1, and the connection is open.
            try client.request(2, Call(Methods.Ping.self))
            let next = try #require(await client.nextFrame())
            #expect(next.requestID == 2)
            #expect(next.kind == .response)
            // Its log entry says what the client got.
            #expect(server.log.written.first { $0.requestID == 1 }?.errorCode == .resultTooLarge)
        }
    }

    @Test("LigasClient receives an answer larger than the daemon's own 1 MiB frame limit")
    func clientTakesLargeAnswers() async throws {
        try await TestServer.run { server in
            let client = try await LigasClient.connect(socketPath: server.path)
            defer { client.close() }
            let teams = try await bounded("teams of league huge") { try await client.teams(league: "huge") }
            #expect(teams.value.count == ScriptedHandler.hugeTeamCount)
        }
    }

    @Test("A request id reused while in flight: badFrame on id 0 naming the id, then close; no frame for the id itself")
    func reusedInFlightID() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.request(9, Call(Methods.Teams.self, TeamsArguments(league: "slow")))
            try client.request(9, Call(Methods.Ping.self))

            let frames = try await client.framesUntilClosed()
            handler.gate.open()
            #expect(frames.map(\.requestID) == [0])
            let body = try #require(try frames.first.flatMap(errorBody))
            #expect(body.code == .badFrame)
            #expect(body.details?["requestId"] == "9")
        }
    }

    @Test("A client that half-closes after its requests gets every answer, streams whole, then the close")
    func halfClose() async throws {
        let imageBytes = 4 << 20
        let handler = ScriptedHandler(imageBytes: imageBytes)
        var limits = ServerLimits()
        limits.streamHighWater = 256 << 10
        try await TestServer.run(limits: limits, handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.request(1, Call(Methods.Image.self, .team("emelec")))
            try client.request(2, Call(Methods.Teams.self, TeamsArguments(league: "slow")))
            // The stream cannot end before the client reads: the server sees the half-close mid-stream.
            try await server.waitFor("stream paused") { $0.pausedStreams == 1 }
            client.shutdownWrite()
            handler.gate.open()

            let frames = try await client.framesUntilClosed()
            let image = frames.filter { $0.requestID == 1 }
            let chunks = image.filter { $0.kind == .streamChunk }.map(\.payload)
            let received = chunks.reduce(into: Data()) { $0.append(contentsOf: $1) }
            guard case .streamEnd(1, let end)? = try image.last.map({ try Message(frame: $0) }) else {
                throw RawClientError.unexpected("stream 1 did not end: \(image.last?.kind.description ?? "no frame")")
            }
            #expect(end.totalBytes == UInt64(imageBytes))
            #expect(received.count == imageBytes)
            #expect(end.sha256 == Data(SHA256.hash(data: received)))
            #expect(frames.filter { $0.requestID == 2 }.map(\.kind) == [.response])
        }
    }

    @Test("A client that sends its last request and half-closes at once (the end of input reaching the server with the request) gets the answer, then the close")
    func halfCloseWithTheLastRequest() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            // Request 2 and the end of input are both in the socket before the server reads
            // again: epoll tells of them in one event.
            try await holdingTheLoop(client, handler) {
                try client.request(2, Call(Methods.Ping.self))
                client.shutdownWrite()
            }

            let frames = try await client.framesUntilClosed()
            #expect(frames.map(\.requestID) == [1, 2])
            #expect(frames.map(\.kind) == [.response, .response])
        }
    }

    @Test("Stopping with a request unread in the socket: shuttingDown for that id, then close")
    func unreadRequestAtShutdown() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            // Request 2 stays unread in the socket until after the server has begun to stop;
            // request 1 then ends, leaving nothing in flight.
            try await holdingTheLoop(client, handler) {
                server.server.stopTakingRequests()
                try client.request(2, Call(Methods.Ping.self))
                // Refused before its payload is judged: shuttingDown, not unknownMethod (PROTOCOL.md §6).
                try client.requestUnknownMethod(3)
            }

            var answers: [UInt32: [String]] = [:]
            for frame in try await client.framesUntilClosed() {
                answers[frame.requestID, default: []].append(try errorBody(frame)?.code.rawValue ?? "\(frame.kind)")
            }
            #expect(answers == [1: ["response"], 2: ["shuttingDown"], 3: ["shuttingDown"]])
            #expect(server.log.written.first { $0.requestID == 2 }?.errorCode == .shuttingDown)
        }
    }

    /// Sends request 1, which holds the server's event loop ("hold"), runs `meanwhile` while it
    /// is held (what the client sends then stays unread in the socket), then lets the loop go.
    private func holdingTheLoop(_ client: RawClient, _ handler: ScriptedHandler, meanwhile: () throws -> Void) async throws {
        try client.request(1, Call(Methods.Teams.self, TeamsArguments(league: "hold")))
        await handler.held.entered.wait()
        try meanwhile()
        handler.held.release()
    }
}
