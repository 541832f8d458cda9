import Foundation
import LigasProtocol
import LigasServer
import LigasTestSupport
import Testing

@Suite("Server: requests, limits and multiplexing")
struct RequestHandlingTests {
    @Test("An unknown method: unknownMethod for that request, counted as served, and the connection stays usable")
    func unknownMethod() async throws {
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.requestUnknownMethod(5)
            let reply = try #require(await client.nextFrame())
            #expect(reply.requestID == 5)
            #expect(try errorBody(reply)?.code == .unknownMethod)

            try client.request(6, Call(Methods.Ping.self))
            #expect(try await client.nextFrame()?.kind == .response)
            // Answered with an error, it counts as served (PROTOCOL.md §5, requestsServed).
            #expect(server.server.statistics().requestsServed == 2)
        }
    }

    @Test("A protocol error quoting a client's long text (a 64 KiB method name, a 64 KiB cache policy) is logged cut to 256 characters")
    func protocolErrorLogCut() async throws {
        let log = LogRecorder()
        try await TestServer.run(logger: log.logger) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            let long = String(repeating: "m", count: 64 << 10)
            for (id, request) in [(1, ["method": long]), (2, ["method": "ping", "cache": long])] as [(UInt32, [String: String])] {
                var payload: [UInt8] = []
                try CBOREncoder().encode(request, into: &payload)
                try client.send { try $0.appendRaw(.request, requestID: id, bytes: payload, to: &$1) }
                #expect(try errorBody(#require(await client.nextFrame()))?.message.count ?? 0 > 64 << 10)  // the client gets it whole
            }
        }
        let errors = log.all.filter { $0.message == "client protocol error" }.compactMap { $0.metadata["error"].map { "\($0)" } }
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0.count < 320 && $0.hasSuffix(" bytes)") }, "\(errors.map(\.count))")
    }

    @Test("A malformed request: badRequest naming the bad field, and the connection stays usable")
    func badRequest() async throws {
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            var payload: [UInt8] = []
            try CBOREncoder().encode(["method": "teams", "cache": "default"], into: &payload)
            try client.send { try $0.appendRaw(.request, requestID: 2, bytes: payload, to: &$1) }
            #expect(try errorBody(#require(await client.nextFrame()))?.code == .badRequest)
            try client.request(3, Call(Methods.Ping.self))
            #expect(try await client.nextFrame()?.requestID == 3)
        }
    }

    @Test("300 clients asking for status at once all get it: the counters never wait for the server's queue")
    func manyConcurrentStatusRequests() async throws {
        var limits = ServerLimits()
        limits.maxConnections = 400
        limits.maxConnectionsPerUID = 400
        try await TestServer.run(limits: limits) { server in
            var clients: [RawClient] = []
            for _ in 0..<300 {
                let client = try RawClient(path: server.path)
                _ = try await client.hello()
                clients.append(client)
            }
            for client in clients { try client.request(1, Call(Methods.Status.self)) }
            var answered = 0
            for client in clients where try await client.nextFrame()?.kind == .response { answered += 1 }
            #expect(answered == 300)
            #expect(server.server.statistics().openConnections == 300)
        }
    }

    @Test("Responses arrive in any order: a fast request overtakes a slow one on the same connection")
    func outOfOrder() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.request(1, Call(Methods.Teams.self, TeamsArguments(league: "slow")))
            try client.request(2, Call(Methods.Teams.self, TeamsArguments(league: "fast")))
            #expect(try await client.nextFrame()?.requestID == 2)
            handler.gate.open()
            #expect(try await client.nextFrame()?.requestID == 1)
        }
    }

    @Test("Past the in-flight cap: tooManyRequests for the extra request only")
    func inFlightCap() async throws {
        var limits = ServerLimits()
        limits.maxInFlightPerConnection = 2
        let handler = ScriptedHandler()
        try await TestServer.run(limits: limits, handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            for id in 1...3 { try client.request(UInt32(id), Call(Methods.Teams.self, TeamsArguments(league: "slow"))) }
            let refused = try #require(await client.nextFrame())
            #expect(refused.requestID == 3)
            #expect(try errorBody(refused)?.code == .tooManyRequests)
            // Past the cap, a request is refused whatever its payload: not unknownMethod.
            try client.requestUnknownMethod(4)
            let alsoRefused = try #require(await client.nextFrame())
            #expect(alsoRefused.requestID == 4)
            #expect(try errorBody(alsoRefused)?.code == .tooManyRequests)
            handler.gate.open()
            let served = [try await client.nextFrame()?.requestID, try await client.nextFrame()?.requestID]
            #expect(Set(served) == [1, 2])
            // The refusal is an answer like the others: logged with its code, and counted.
            try await server.waitFor("four requests served") { $0.requestsServed == 4 }
            #expect(server.log.written.first { $0.requestID == 3 }?.errorCode == .tooManyRequests)
        }
    }

    @Test("The last-closed hook runs each time the last open connection closes, and not before")
    func lastClosedHook() async throws {
        let lastClosed = Counter()
        let server = try TestServer(whenLastClosed: { lastClosed.add(1) })
        let outcome = await asyncResult {
            let first = try RawClient(path: server.path), second = try RawClient(path: server.path)
            _ = try await first.hello()
            _ = try await second.hello()
            first.hangUp()
            try await server.waitFor("one connection left") { $0.openConnections == 1 }
            #expect(lastClosed.total == 0)
            second.hangUp()
            try await poll("the hook to run") { lastClosed.total == 1 ? () : nil }

            let third = try RawClient(path: server.path)
            _ = try await third.hello()
            third.hangUp()
            try await poll("the hook to run again") { lastClosed.total == 2 ? () : nil }
        }
        await server.stop()
        try outcome.get()
    }

    @Test("The last-closed hook does not run when shutdown closes the last connection")
    func lastClosedHookNotOnShutdown() async throws {
        let lastClosed = Counter()
        let server = try TestServer(whenLastClosed: { lastClosed.add(1) })
        let client = try RawClient(path: server.path)
        _ = try await client.hello()
        try await server.waitFor("the client connected") { $0.openConnections == 1 }

        await server.stop()  // returns once the last connection has closed

        #expect(server.server.statistics().openConnections == 0)
        #expect(lastClosed.total == 0)
    }

    @Test("Requests ended by their connection's close count as finished: requestsServed plus inFlightRequests is every request read")
    func closedConnectionCountsItsRequests() async throws {
        let handler = ScriptedHandler()
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            for id in 1...2 { try client.request(UInt32(id), Call(Methods.Teams.self, TeamsArguments(league: "slow"))) }
            try await server.waitFor("two requests in flight") { $0.inFlightRequests == 2 }
            client.hangUp()
            try await server.waitFor("the connection gone") { $0.openConnections == 0 }
            let statistics = server.server.statistics()
            #expect(statistics.inFlightRequests == 0)
            #expect(statistics.requestsServed == 2)
            // Nothing reached the client, so nothing says "request served".
            #expect(server.log.written.isEmpty)
            handler.gate.open()
        }
    }

    @Test("A deadline of 0: deadlineExceeded at once")
    func zeroDeadline() async throws {
        try await TestServer.run { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.request(1, Call(Methods.Teams.self, TeamsArguments(league: "slow")), deadlineMs: 0)
            #expect(try errorBody(#require(await client.nextFrame()))?.code == .deadlineExceeded)
        }
    }

    @Test("A deadline bounds the wait for an answer to start: a stream whose header was sent runs to its end past the deadline")
    func deadlineUntilTheAnswerStarts() async throws {
        let handler = ScriptedHandler(imageBytes: 300_000)
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            // "late": the header at once, the chunks once the gate opens, well past the deadline.
            try client.request(2, Call(Methods.Image.self, .team("late")), deadlineMs: 500)
            let header = try #require(await client.nextFrame())
            #expect(header.kind == .response && header.requestID == 2)
            try await Task.sleep(for: .milliseconds(600))  // past the deadline, whatever the machine's speed
            handler.gate.open()
            var chunks: [Frame] = []
            var last: Frame?
            while let frame = try await client.nextFrame() {
                guard frame.kind == .streamChunk else { last = frame; break }
                chunks.append(frame)
            }
            #expect(last?.kind == .streamEnd && last?.requestID == 2, "\(String(describing: last?.kind))")
            #expect(chunks.reduce(0) { $0 + $1.payload.count } == 300_000)
        }
    }

    @Test("Past a connection cap (global, or per user): tooManyRequests on id 0 naming the cap for the newcomer; existing clients keep working",
          arguments: ["connections", "connectionsPerUID"])
    func connectionCap(cap: String) async throws {
        var limits = ServerLimits()
        if cap == "connections" { limits.maxConnections = 2 } else { limits.maxConnectionsPerUID = 2 }
        try await TestServer.run(limits: limits) { server in
            // Each client says hello as soon as it connects: one left waiting for its hello while
            // the test awaits something else would meet the handshake timeout on a starved machine.
            // Every client of this test is the test process's own uid.
            let first = try RawClient(path: server.path)
            _ = try await first.hello()
            let second = try RawClient(path: server.path)
            _ = try await second.hello()
            let third = try RawClient(path: server.path)
            let frames = try await third.framesUntilClosed()
            #expect(frames.map(\.requestID) == [0])
            #expect(try frames.map { try errorBody($0)?.code } == [.tooManyRequests])
            #expect(try frames.map { try errorBody($0)?.details } == [["cap": cap, "max": "2"]])
            try first.request(1, Call(Methods.Ping.self))
            #expect(try await first.nextFrame()?.kind == .response)
            try second.request(1, Call(Methods.Ping.self))
            #expect(try await second.nextFrame()?.kind == .response)
            #expect(server.server.statistics().connectionsRefused == 1)
        }
    }

    @Test("64 clients x 100 requests each, pipelined up to the announced in-flight limit, all answered correctly")
    func manyClients() async throws {
        try await TestServer.run { server in
            let path = server.path
            let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                for clientIndex in 0..<64 {
                    group.addTask {
                        let client = try RawClient(path: path)
                        let window = Int(try await client.hello().maxInFlight)
                        var sent = 0
                        var correct = 0
                        func sendNext() throws {
                            sent += 1
                            try client.request(UInt32(sent), Call(Methods.Teams.self, TeamsArguments(league: "l\(clientIndex)-\(sent)")))
                        }
                        while sent < min(window, 100) { try sendNext() }
                        for _ in 1...100 {
                            guard case .response(let id, let payload) = try await client.nextMessage() else { continue }
                            let result = try CBORDecoder().decode(TeamsResult.self, from: payload)
                            if result.value.first?.id == "l\(clientIndex)-\(id)" { correct += 1 }
                            if sent < 100 { try sendNext() }
                        }
                        return correct
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(answered == 6400)
        }
    }
}
