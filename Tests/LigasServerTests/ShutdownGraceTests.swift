import Foundation
import LigasProtocol
import LigasServer
import LigasTestSupport
import Testing

/// `Server.shutdown(grace:)`: requests in flight get the grace, and no more.
@Suite("Server: stopping within the grace")
struct ShutdownGraceTests {
    @Test("A request that never ends (a remote that trickles for ever): once the grace runs out it is answered cutOff, its connection is closed, the stop completes, and a notice says what was cut off")
    func graceRunsOut() async throws {
        let handler = ScriptedHandler()
        let log = LogRecorder()
        let server = try TestServer(handler: handler, logger: log.logger)
        defer { handler.gate.open() }  // lets the abandoned request's task end
        let client = try RawClient(path: server.path)
        _ = try await client.hello()
        try client.request(1, Call(Methods.Teams.self, TeamsArguments(league: "slow")))  // waits for the gate
        try await server.waitFor("the request in flight") { $0.inFlightRequests == 1 }

        let began = ContinuousClock.now
        let stopped = Task { await server.server.shutdown(grace: .milliseconds(200)) }
        // The connection closes once the grace is over: before the fix, only once the request ended.
        let frames = try await client.framesUntilClosed()
        #expect(frames.map(\.kind) == [.error] && frames.first?.requestID == 1, "\(frames.map(\.kind))")
        let answer = try frames.first.map { try CBORDecoder().decode(ErrorBody.self, from: $0.payload) }
        #expect(answer == .cutOff(grace: .milliseconds(200)), "\(String(describing: answer))")
        #expect(answer?.code == .cutOff && answer?.message.contains("grace of 0.2 s") == true)
        // Not before (a bound that cannot be missed by a slow machine, only by a grace ignored).
        #expect(ContinuousClock.now - began >= .milliseconds(200))
        await stopped.value
        #expect(server.server.statistics().openConnections == 0)
        let notice = log.all.first { $0.message.hasPrefix("shutdown grace over") }
        #expect(notice?.level == .notice)
        #expect(notice?.metadata["connections"] == "1" && notice?.metadata["in-flight"] == "1", "\(String(describing: notice))")
    }

    @Test("A stream whose client had stopped reading when the grace ran out: its queued chunks, then cutOff, reach the client once it reads, then the connection closes")
    func streamCutOffAfterItsQueuedChunks() async throws {
        let handler = ScriptedHandler(imageBytes: 32 << 20)
        let log = LogRecorder()
        var limits = ServerLimits()
        limits.cutOffDeliveryLimit = .seconds(30)  // the client reads at once; a starved machine must not decide
        let server = try TestServer(limits: limits, handler: handler, logger: log.logger)
        let client = try RawClient(path: server.path)
        _ = try await client.hello()
        try client.request(1, Call(Methods.Image.self, .team("big")))  // 32 MiB: more than the socket and the queue hold
        try await server.waitFor("the stream paused, its client not reading") { $0.pausedStreams == 1 }

        let stopped = Task { await server.server.shutdown(grace: .milliseconds(100)) }
        for _ in 0..<2000 where !log.messages.contains(where: { $0.hasPrefix("shutdown grace over") }) {
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(log.messages.contains { $0.hasPrefix("shutdown grace over") })
        // Before the fix the connection was closed after one write that the full socket refused:
        // the client read the chunks already in its socket, then a connection lost.
        let frames = try await client.framesUntilClosed()
        await stopped.value
        let kinds = frames.map(\.kind)
        #expect(kinds.first == .response && kinds.last == .error, "\(kinds.count) frames, ending \(kinds.suffix(2))")
        #expect(kinds.dropFirst().dropLast().allSatisfy { $0 == .streamChunk })
        let last = try #require(frames.last)
        #expect(last.requestID == 1)
        #expect(try CBORDecoder().decode(ErrorBody.self, from: last.payload) == .cutOff(grace: .milliseconds(100)))
    }
}
