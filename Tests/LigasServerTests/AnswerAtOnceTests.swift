import Foundation
import LigasProtocol
import LigasServer
import LigasTestSupport
import Testing

@Suite("Server: answers ready at once")
struct AnswerAtOnceTests {
    @Test("A request whose answer is ready (a cache hit in memory) is answered from the read handler: the handler's task path never runs")
    func readyAnswerSkipsTheTask() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            for id in UInt32(1)...20 {
                try client.request(id, Call(Methods.Teams.self, TeamsArguments(league: "ready")))
                let reply = try #require(await client.nextFrame())
                #expect(reply.requestID == id && reply.kind == .response)
                #expect(try CBORDecoder().decode(TeamsResult.self, from: reply.payload).value.map(\.id) == ["ready"])
            }
            try client.request(21, Call(Methods.Ping.self))
            #expect(try await client.nextFrame()?.requestID == 21)
            #expect(handler.handled.total == 0)

            try client.request(22, Call(Methods.Teams.self, TeamsArguments(league: "later")))
            #expect(try await client.nextFrame()?.requestID == 22)
            #expect(handler.handled.total == 1)
            try await server.waitFor("every request counted as served") { $0.requestsServed == 22 && $0.inFlightRequests == 0 }
        }
    }

    @Test("An answer ready at once does not wait behind a slow request on the same connection")
    func readyAnswerOvertakesSlowOne() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.request(1, Call(Methods.Teams.self, TeamsArguments(league: "slow")))
            try client.request(2, Call(Methods.Teams.self, TeamsArguments(league: "ready")))
            #expect(try await client.nextFrame()?.requestID == 2)
            handler.gate.open()
            #expect(try await client.nextFrame()?.requestID == 1)
        }
    }

    @Test("deadlineMs 0 is answered deadlineExceeded at once, without asking the handler")
    func zeroDeadline() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.request(3, Call(Methods.Teams.self, TeamsArguments(league: "slow")), deadlineMs: 0)
            let reply = try #require(await client.nextFrame())
            #expect(reply.requestID == 3)
            #expect(try errorBody(reply)?.code == .deadlineExceeded)
            #expect(handler.handled.total == 0)
        }
    }

    @Test("A client that never reads its answers ready at once is closed once they pass maxOutputBytes, like any other")
    func unreadAnswersAreBounded() async throws {
        var limits = ServerLimits()
        limits.maxOutputBytes = 64 << 10
        try await TestServer.run(limits: limits) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            // Never read: describe's answer is ~6 KB, so these fill the socket and then the output queue.
            var sent = 0
            while sent < 5_000, (try? client.request(UInt32(sent + 1), Call(Methods.Describe.self))) != nil { sent += 1 }
            try await server.waitFor("the non-reading client closed") { $0.openConnections == 0 }
        }
    }
}
