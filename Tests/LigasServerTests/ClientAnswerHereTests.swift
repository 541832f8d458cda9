import Foundation
@testable import LigasClient
import LigasProtocol
import LigasServer
import LigasTestSupport
import Testing

@Suite("LigasClient: a caller alone on its connection reads its own answer")
struct ClientAnswerHereTests {
    @Test("Within the budget, each caller takes its answer on its own thread, with no read source and no continuation")
    func answersTakenHere() async throws {
        try await TestServer.run { server in
            let client = try await LigasClient.connect(
                socketPath: server.path, agent: "test", requestDeadline: nil, answerHereBudget: .seconds(30))
            defer { client.close() }
            for _ in 0..<10 { try await client.ping() }
            #expect(try await client.teams(league: "ready").value.map(\.id) == ["ready"])
            #expect(client.flowStatistics.answersTakenHere == 11)
        }
    }

    @Test("With no budget, answers come through the read source, the same answers")
    func answersThroughTheReadSource() async throws {
        try await TestServer.run { server in
            let client = try await LigasClient.connect(
                socketPath: server.path, agent: "test", requestDeadline: nil, answerHereBudget: .zero)
            defer { client.close() }
            for _ in 0..<10 { try await client.ping() }
            #expect(try await client.teams(league: "ready").value.map(\.id) == ["ready"])
            #expect(client.flowStatistics.answersTakenHere == 0)
        }
    }

    @Test("A caller past its budget waits on; one that comes meanwhile is answered through the read source, and both get their own answer")
    func pastTheBudget() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(handler: handler) { server in
            let client = try await LigasClient.connect(
                socketPath: server.path, agent: "test", requestDeadline: nil, answerHereBudget: .milliseconds(1))
            defer { client.close() }
            async let slow = client.teams(league: "slow")
            try await poll("the slow request reached the handler") { handler.handled.total == 1 ? () : nil }
            // Not alone: the slow caller's request is in flight, so this one never waits here.
            try await client.ping()
            handler.gate.open()
            #expect(try await slow.value.map(\.id) == ["slow"])
        }
    }

    @Test("A caller cancelled while it waits past its budget gets CancellationError, and the connection goes on")
    func cancelledPastTheBudget() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(handler: handler) { server in
            let client = try await LigasClient.connect(
                socketPath: server.path, agent: "test", requestDeadline: nil, answerHereBudget: .milliseconds(1))
            defer { client.close() }
            let slow = Task { try await client.teams(league: "slow") }
            try await poll("the slow request reached the handler") { handler.handled.total == 1 ? () : nil }
            slow.cancel()
            await #expect(throws: CancellationError.self) { try await slow.value }
            try await client.ping()
        }
    }
}
