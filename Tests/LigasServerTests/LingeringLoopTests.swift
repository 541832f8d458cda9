import Crypto
import Foundation
import LigasProtocol
import LigasServer
import LigasTestSupport
import Testing

/// Having served a request, the connections' thread waits a little for the next one (`linger`).
/// Here it would wait 30 s, longer than the test client waits for a frame (10 s): each test
/// passes only if work handed to the loop in the meantime ends the wait (the doorbell).
@Suite("Server: the loop lingers after a request, and nothing handed to it waits")
struct LingeringLoopTests {
    static var longLinger: ServerLimits {
        var limits = ServerLimits()
        limits.linger = .seconds(30)
        return limits
    }

    @Test("A request answered by a task while the loop lingers is answered")
    func taskAnswerEndsTheLinger() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(limits: Self.longLinger, handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            for id in UInt32(1)...3 {
                try client.request(id * 2, Call(Methods.Ping.self))
                #expect(try await client.nextFrame()?.requestID == id * 2)
                try client.request(id * 2 + 1, Call(Methods.Teams.self, TeamsArguments(league: "later")))
                let reply = try #require(await client.nextFrame())
                #expect(reply.requestID == id * 2 + 1 && reply.kind == .response)
            }
            #expect(handler.handled.total == 3)
        }
    }

    @Test("A client that connects while the loop lingers for another is served")
    func newConnectionEndsTheLinger() async throws {
        try await TestServer.run(limits: Self.longLinger) { server in
            let first = try RawClient(path: server.path)
            _ = try await first.hello()
            try first.request(1, Call(Methods.Ping.self))
            #expect(try await first.nextFrame()?.requestID == 1)
            let second = try RawClient(path: server.path)
            _ = try await second.hello()
            try second.request(1, Call(Methods.Ping.self))
            #expect(try await second.nextFrame()?.requestID == 1)
        }
    }

    @Test("A stream ready in memory flows to its end while the loop lingers between its chunks")
    func readyStreamEndsTheLinger() async throws {
        let handler = ScriptedHandler(imageBytes: 1 << 20)
        try await TestServer.run(limits: Self.longLinger, handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello(chunkSize: 16 << 10)
            try client.request(1, Call(Methods.Ping.self))
            #expect(try await client.nextFrame()?.requestID == 1)
            try client.request(2, Call(Methods.Image.self, .team("ready")))
            let (_, _, bytes, end) = try await client.stream(2)
            #expect(bytes == GeneratedBytes.expected(1 << 20))
            #expect(end.sha256 == Data(SHA256.hash(data: bytes)))
        }
    }

    @Test("A server stopping while its loop lingers closes its idle connection")
    func shutdownEndsTheLinger() async throws {
        let server = try TestServer(limits: Self.longLinger)
        let client = try RawClient(path: server.path)
        _ = try await client.hello()
        try client.request(1, Call(Methods.Ping.self))
        #expect(try await client.nextFrame()?.requestID == 1)
        let stopping = Task { await server.stop() }
        let frames = await asyncResult { try await client.framesUntilClosed() }
        // Within 10 s, not the 30 s linger: the loop's close ends its drain.
        try await within(.seconds(10), "the server to stop") { await stopping.value }
        #expect(try frames.get().allSatisfy { $0.kind != .response })
        #expect(server.server.statistics().openConnections == 0)
    }
}
