import Foundation
@testable import LigasClient
import LigasProtocol
import LigasServer
import LigasTestSupport
import Testing

@Suite("LigasClient: a caller alone in the process reads its own answer")
struct ClientAnswerHereTests {
    /// A client whose calls count only among themselves (the tests beside it run calls of their own).
    static func client(_ server: TestServer, budget: Duration, callers: CallsInFlight = CallsInFlight()) async throws -> LigasClient {
        try await LigasClient.connect(socketPath: server.path, agent: "test", requestDeadline: nil) {
            ClientConnection(socket: $0, answerHereBudget: budget, callers: callers)
        }
    }

    @Test("Within the budget, each caller takes its answer on its own thread, without waking the reader thread or the task")
    func answersTakenHere() async throws {
        try await TestServer.run { server in
            let client = try await Self.client(server, budget: .seconds(30))
            defer { client.close() }
            let wakeUpsAfterHello = client.flowStatistics.readerWakeUps
            for _ in 0..<10 { try await client.ping() }
            #expect(try await client.teams(league: "ready").value.map(\.id) == ["ready"])
            #expect(client.flowStatistics.answersTakenHere == 11)
            // Parked while nothing awaits it: it did not wake to find the answers taken.
            #expect(client.flowStatistics.readerWakeUps == wakeUpsAfterHello)
        }
    }

    @Test("With no budget, answers come through the reader thread, the same answers")
    func answersThroughTheReaderThread() async throws {
        try await TestServer.run { server in
            let client = try await Self.client(server, budget: .zero)
            defer { client.close() }
            for _ in 0..<10 { try await client.ping() }
            #expect(try await client.teams(league: "ready").value.map(\.id) == ["ready"])
            #expect(client.flowStatistics.answersTakenHere == 0)
            #expect(client.flowStatistics.readerWakeUps >= 12)  // the hello and the 11 answers
        }
    }

    @Test("Answers that come through the reader thread one after another find it polling: it does not park between them")
    func readerStaysUpBetweenAnswers() async throws {
        try await TestServer.run { server in
            let client = try await Self.client(server, budget: .zero)
            defer { client.close() }
            try await client.ping()
            let parksAfterFirstAnswer = client.flowStatistics.readerParks
            for _ in 0..<10 { try await client.ping() }
            #expect(try await client.teams(league: "ready").value.map(\.id) == ["ready"])
            // A parked reader would have been woken by each call, then again by its answer.
            #expect(client.flowStatistics.readerParks == parksAfterFirstAnswer)
        }
    }

    @Test("A caller past its budget waits on; one that comes meanwhile is answered through the reader thread, and both get their own answer")
    func pastTheBudget() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(handler: handler) { server in
            let client = try await Self.client(server, budget: .milliseconds(1))
            defer { client.close() }
            async let slow = client.teams(league: "slow")
            try await poll("the slow request reached the handler") { handler.handled.total == 1 ? () : nil }
            // Not alone: the slow call is in flight, so this one never waits here.
            try await client.ping()
            handler.gate.open()
            #expect(try await slow.value.map(\.id) == ["slow"])
        }
    }

    @Test("A call while another is in flight, even on another connection, is answered through the reader")
    func notAloneInTheProcess() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(handler: handler) { server in
            let callers = CallsInFlight()
            let slowClient = try await Self.client(server, budget: .seconds(30), callers: callers)
            let other = try await Self.client(server, budget: .seconds(30), callers: callers)
            defer { slowClient.close(); other.close() }
            // Alone, it waits for its answer here, for up to its 30 s: off the cooperative pool, which
            // the server's request tasks (in this process) need.
            async let slow = withTaskExecutorPreference(BlockingQueueExecutor(label: "ligas-test-slow")) {
                try await slowClient.teams(league: "slow")
            }
            try await poll("the slow request reached the handler") { handler.handled.total == 1 ? () : nil }
            try await other.ping()
            #expect(other.flowStatistics.answersTakenHere == 0)
            handler.gate.open()
            #expect(try await slow.value.map(\.id) == ["slow"])
        }
    }

    @Test("A caller cancelled while it waits past its budget gets CancellationError, and the connection goes on")
    func cancelledPastTheBudget() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(handler: handler) { server in
            let client = try await Self.client(server, budget: .milliseconds(1))
            defer { client.close() }
            let slow = Task { try await client.teams(league: "slow") }
            try await poll("the slow request reached the handler") { handler.handled.total == 1 ? () : nil }
            slow.cancel()
            await #expect(throws: CancellationError.self) { try await slow.value }
            try await client.ping()
        }
    }
}
