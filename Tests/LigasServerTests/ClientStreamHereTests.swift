import Foundation
@testable import LigasClient
import LigasProtocol
import LigasServer
import LigasTestSupport
import Testing

/// A download alone in the process: its caller reads the header and its consumer the first chunk on
/// their own thread (within the budget), and the reader thread reads the rest.
@Suite("LigasClient: a download alone in the process reads its start itself")
struct ClientStreamHereTests {
    static let size = 1 << 20

    /// Off the cooperative pool: a consumer reading here blocks its thread, and the test server's
    /// request tasks (in this process) must still find one.
    static func download(_ client: LigasClient, _ team: String) async throws -> Data {
        try await withTaskExecutorPreference(BlockingQueueExecutor(label: "ligas-test-download")) {
            var bytes = Data()
            for try await chunk in try await client.image(.team(team)) { bytes.append(chunk) }
            return bytes
        }
    }

    @Test("Header and first chunk read here, the rest through the reader thread: every byte, checked", arguments: ["ready", "emelec"])
    func startReadHere(team: String) async throws {
        try await TestServer.run(handler: ScriptedHandler(imageBytes: Self.size)) { server in
            let client = try await ClientAnswerHereTests.client(server, budget: .seconds(30))
            defer { client.close() }
            #expect(try await Self.download(client, team) == GeneratedBytes.expected(Self.size))
            #expect(try await Self.download(client, team) == GeneratedBytes.expected(Self.size))
            let flow = client.flowStatistics
            #expect(flow.streamHeadersTakenHere == 2)
            #expect(flow.firstChunksTakenHere == 2)
            #expect(flow.readerTakeovers == 0)
        }
    }

    @Test("With no budget, a download comes all through the reader thread: the same bytes")
    func noBudget() async throws {
        try await TestServer.run(handler: ScriptedHandler(imageBytes: Self.size)) { server in
            let client = try await ClientAnswerHereTests.client(server, budget: .zero)
            defer { client.close() }
            #expect(try await Self.download(client, "ready") == GeneratedBytes.expected(Self.size))
            let flow = client.flowStatistics
            #expect(flow.streamHeadersTakenHere == 0)
            #expect(flow.firstChunksTakenHere == 0)
        }
    }

    @Test("A header that comes after the budget: the reader thread takes it over, and the download completes")
    func lateHeader() async throws {
        let handler = ScriptedHandler(imageBytes: Self.size)
        try await TestServer.run(handler: handler) { server in
            let client = try await ClientAnswerHereTests.client(server, budget: .milliseconds(1))
            defer { client.close() }
            async let bytes = Self.download(client, "slow")
            try await poll("the reader took the header over") { client.flowStatistics.readerTakeovers == 1 ? () : nil }
            handler.gate.open()
            #expect(try await bytes == GeneratedBytes.expected(Self.size))
            #expect(client.flowStatistics.streamHeadersTakenHere == 0)
        }
    }

    @Test("A first chunk that comes after the budget: the reader thread takes the stream over, and the download completes")
    func lateFirstChunk() async throws {
        let handler = ScriptedHandler(imageBytes: Self.size)
        try await TestServer.run(handler: handler) { server in
            // Long enough for the header (which comes at once), not for the first chunk (which waits).
            let client = try await ClientAnswerHereTests.client(server, budget: .seconds(2))
            defer { client.close() }
            async let bytes = Self.download(client, "late")
            try await poll("the reader took the stream over from its first chunk") {
                let flow = client.flowStatistics
                return flow.streamHeadersTakenHere == 1 && flow.readerTakeovers == 1 ? () : nil
            }
            handler.gate.open()
            #expect(try await bytes == GeneratedBytes.expected(Self.size))
            #expect(client.flowStatistics.firstChunksTakenHere == 0)
        }
    }

    @Test("A download while another call is in flight in the process comes through the reader thread")
    func notAlone() async throws {
        let handler = ScriptedHandler(imageBytes: Self.size)
        try await TestServer.run(handler: handler) { server in
            let callers = CallsInFlight()
            let slowClient = try await ClientAnswerHereTests.client(server, budget: .seconds(30), callers: callers)
            let client = try await ClientAnswerHereTests.client(server, budget: .seconds(30), callers: callers)
            defer { slowClient.close(); client.close() }
            // Alone, it waits here, off the pool (see `download`).
            async let slow = withTaskExecutorPreference(BlockingQueueExecutor(label: "ligas-test-slow")) {
                try await slowClient.teams(league: "slow")
            }
            try await poll("the slow request reached the handler") { handler.handled.total == 1 ? () : nil }
            #expect(try await Self.download(client, "ready") == GeneratedBytes.expected(Self.size))
            #expect(client.flowStatistics.streamHeadersTakenHere == 0)
            handler.gate.open()
            #expect(try await slow.value.map(\.id) == ["slow"])
        }
    }

    @Test("A download whose caller is no longer alone when it asks for its first chunk leaves it to the reader thread at once")
    func firstChunkNotAlone() async throws {
        let handler = ScriptedHandler(imageBytes: Self.size)
        try await TestServer.run(handler: handler) { server in
            let callers = CallsInFlight()
            let client = try await ClientAnswerHereTests.client(server, budget: .seconds(30), callers: callers)
            let slowClient = try await ClientAnswerHereTests.client(server, budget: .seconds(30), callers: callers)
            defer { client.close(); slowClient.close() }
            let executor = BlockingQueueExecutor(label: "ligas-test-download")
            let download = try await withTaskExecutorPreference(executor) { try await client.image(.team("late")) }
            #expect(client.flowStatistics.streamHeadersTakenHere == 1)
            // Alone, it waits here, off the pool; the download's consumer is now not alone.
            async let slow = withTaskExecutorPreference(BlockingQueueExecutor(label: "ligas-test-slow")) {
                try await slowClient.teams(league: "slow")
            }
            try await poll("the slow request reached the handler") { handler.handled.total == 2 ? () : nil }
            async let bytes = withTaskExecutorPreference(executor) {
                var bytes = Data()
                for try await chunk in download { bytes.append(chunk) }
                return bytes
            }
            try await poll("the reader took the stream over") { client.flowStatistics.readerTakeovers == 1 ? () : nil }
            handler.gate.open()
            #expect(try await bytes == GeneratedBytes.expected(Self.size))
            #expect(try await slow.value.map(\.id) == ["slow"])
            #expect(client.flowStatistics.firstChunksTakenHere == 0)
        }
    }

    @Test(
        "A download abandoned before its first chunk (its iterator dropped, or none ever made): the daemon is told, nothing waits in the client, and the next download on the connection is whole",
        arguments: [true, false])
    func abandonedBeforeFirstChunk(makesAnIterator: Bool) async throws {
        let handler = ScriptedHandler(imageBytes: Self.size)
        try await TestServer.run(handler: handler) { server in
            let client = try await ClientAnswerHereTests.client(server, budget: .seconds(30))
            defer { client.close() }
            try await withTaskExecutorPreference(BlockingQueueExecutor(label: "ligas-test-download")) {
                let download = try await client.image(.team("late"))
                #expect(download.header.totalSize == UInt64(Self.size))
                if makesAnIterator { _ = download.makeAsyncIterator() }
            }
            try await server.waitFor("the daemon read the cancel") { $0.inFlightRequests == 0 }
            handler.gate.open()
            try await poll("the daemon let go of the stream") { handler.streamTerminated.isOpen ? () : nil }
            #expect(try await Self.download(client, "ready") == GeneratedBytes.expected(Self.size))
            #expect(client.flowStatistics.buffered == 0)
        }
    }

    @Test("A caller cancelled while it waits here for the header gets CancellationError, and the daemon is told")
    func cancelledWhileWaitingForTheHeader() async throws {
        let handler = ScriptedHandler(imageBytes: 8 << 20)
        try await TestServer.run(handler: handler) { server in
            let client = try await ClientAnswerHereTests.client(server, budget: .seconds(30))
            defer { client.close() }
            let attempt = Task(executorPreference: BlockingQueueExecutor(label: "ligas-test-download")) {
                _ = try await client.image(.team("slow"))
            }
            try await poll("the request reached the handler") { handler.handled.total == 1 ? () : nil }
            attempt.cancel()
            handler.gate.open()  // the header comes while the caller still waits here
            await #expect(throws: CancellationError.self) { try await attempt.value }
            try await poll("the daemon let go of the stream") { handler.streamTerminated.isOpen ? () : nil }
            try await client.ping()
        }
    }
}
