import Crypto
import Foundation
@testable import LigasClient
import LigasProtocol
import LigasServer
import LigasTestSupport
import Testing

@Suite("Server: image streams")
struct StreamingTests {
    @Test("A stream is a header, chunks no larger than the negotiated size, and an end with the SHA-256")
    func completeStream() async throws {
        let handler = ScriptedHandler(imageBytes: 300_000)
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello(chunkSize: 40_000)
            try client.request(1, Call(Methods.Image.self, .team("emelec")))

            let (header, chunkSizes, bytes, end) = try await client.stream(1)
            #expect(header.totalSize == 300_000)
            #expect(chunkSizes.allSatisfy { $0 <= 40_000 })
            #expect(bytes == GeneratedBytes.expected(300_000))
            #expect(end.totalBytes == 300_000)
            #expect(end.sha256 == Data(SHA256.hash(data: bytes)))
        }
    }

    @Test("Cancel mid-stream: no end and no error for that id, the source stops, and the connection goes on")
    func cancelMidStream() async throws {
        let handler = ScriptedHandler(imageBytes: 64 << 20)
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.request(1, Call(Methods.Image.self, .team("emelec")))
            guard case .streamStart = try await client.nextMessage() else { throw RawClientError.unexpected("no header") }
            _ = try await client.nextFrame()
            try client.send { try $0.appendCancel(id: 1, to: &$1) }
            try client.request(2, Call(Methods.Ping.self))

            var afterCancel: [FrameKind] = []
            while let frame = try await client.nextFrame(), frame.requestID != 2 { afterCancel.append(frame.kind) }
            #expect(!afterCancel.contains(.streamEnd))
            #expect(!afterCancel.contains(.error))
            await handler.streamTerminated.wait()
            #expect(handler.produced.total < 64 << 20)
        }
    }

    @Test("A client that disconnects mid-stream: the source is released and the server carries on")
    func disconnectMidStream() async throws {
        let handler = ScriptedHandler(imageBytes: 64 << 20)
        try await TestServer.run(handler: handler) { server in
            do {
                let client = try RawClient(path: server.path)
                _ = try await client.hello()
                try client.request(1, Call(Methods.Image.self, .team("emelec")))
                _ = try await client.nextFrame()
            }
            await handler.streamTerminated.wait()
            try await server.waitFor("connection gone") { $0.openConnections == 0 && $0.inFlightRequests == 0 }
            let other = try RawClient(path: server.path)
            _ = try await other.hello()
            try other.request(1, Call(Methods.Ping.self))
            #expect(try await other.nextFrame()?.kind == .response)
        }
    }

    @Test("A client that stops reading: the stream pauses (bounded memory) and other clients are unaffected")
    func slowReader() async throws {
        let handler = ScriptedHandler(imageBytes: 100 << 20)
        var limits = ServerLimits()
        limits.streamHighWater = 256 << 10
        try await TestServer.run(limits: limits, handler: handler) { server in
            let reader = try RawClient(path: server.path)
            _ = try await reader.hello()
            try reader.request(1, Call(Methods.Image.self, .team("emelec")))
            // Never read again: the server must pause the stream (waiting for room)...
            try await server.waitFor("stream paused") { $0.pausedStreams == 1 }
            // ...long before the 100 MiB: socket buffers plus the high-water mark.
            #expect(handler.produced.total < 16 << 20)

            let other = try RawClient(path: server.path)
            _ = try await other.hello()
            try other.request(1, Call(Methods.Ping.self))
            #expect(try await other.nextFrame()?.kind == .response)
        }
    }
}

@Suite("Server: a stream whose source fails")
struct FailingStreamTests {
    static let failure = ErrorBody(code: .invalidData, message: "a piece is gone")

    /// `chunks` chunks of 100 KiB, then the source fails (a cache piece gone, a remote cut off).
    struct FailingChunks: AsyncSequence, Sendable {
        let chunks: Int

        func makeAsyncIterator() -> Iterator { Iterator(left: chunks) }

        struct Iterator: AsyncIteratorProtocol {
            var left: Int

            mutating func next() async throws -> Data? {
                guard left > 0 else { throw FailingStreamTests.failure }
                left -= 1
                return GeneratedBytes.expected(100 << 10)
            }
        }

        static func outcome(after chunks: Int) -> HandlerOutcome {
            .stream(OutgoingStream(
                header: StreamHeader(contentType: "image/png", totalSize: 300 << 10, source: .cache),
                chunks: FailingChunks(chunks: chunks)))
        }
    }

    /// Fails after one chunk.
    struct FailsAfterFirstChunk: RequestHandler {
        func handle(_ request: Request, context: RequestContext) async -> HandlerOutcome {
            FailingChunks.outcome(after: 1)
        }
    }

    /// Request 1 streams 64 MiB to a client that does not read, so that the connection's output
    /// is full; request 2's source fails before its first chunk, while its header waits for room.
    struct FullOutputThenFailure: RequestHandler {
        let big = ScriptedHandler(imageBytes: 64 << 20)

        func handle(_ request: Request, context: RequestContext) async -> HandlerOutcome {
            guard context.requestID == 2 else { return await big.handle(request, context: context) }
            return FailingChunks.outcome(after: 0)
        }
    }

    @Test("A source that fails after a chunk: the header, that chunk, then its error and no end; the connection goes on")
    func failureAfterFirstChunk() async throws {
        try await TestServer.run(handler: FailsAfterFirstChunk()) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.request(1, Call(Methods.Image.self, .team("emelec")))
            var kinds: [FrameKind] = []
            var chunkBytes = 0
            var error: ErrorBody?
            while error == nil, let frame = try await client.nextFrame() {
                kinds.append(frame.kind)
                if frame.kind == .streamChunk { chunkBytes += frame.payload.count }
                if frame.kind == .error { error = try CBORDecoder().decode(ErrorBody.self, from: frame.payload) }
            }
            #expect(kinds.first == .response && kinds.last == .error)
            #expect(kinds.dropFirst().dropLast().allSatisfy { $0 == .streamChunk })
            #expect(chunkBytes == 100 << 10)
            #expect(error == Self.failure)
            try client.request(2, Call(Methods.Image.self, .team("emelec")))
            #expect(try await client.nextFrame()?.requestID == 2)
        }
    }

    @Test("A source that fails while its header waits for room: the header, then the error, once the client reads")
    func errorWaitsForTheHeader() async throws {
        try await TestServer.run(handler: FullOutputThenFailure()) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.request(1, Call(Methods.Image.self, .team("emelec")))
            try await server.waitFor("request 1's stream paused") { $0.pausedStreams == 1 }
            try client.request(2, Call(Methods.Image.self, .team("fails")))
            try await server.waitFor("request 2's header waiting for room") { $0.pausedStreams == 2 }
            try client.send { try $0.appendCancel(id: 1, to: &$1) }

            var second: [FrameKind] = []
            while second.last != .error, let frame = try await client.nextFrame() {
                if frame.requestID == 2 { second.append(frame.kind) }
            }
            #expect(second == [.response, .error])
        }
    }
}

@Suite("Server: a stream's log entry")
struct StreamLogTests {
    @Test("A stream cancelled while a chunk waits for room: its entry counts the chunk bytes the client was sent, not that chunk")
    func cancelledStreamCountsWhatWasSent() async throws {
        let handler = ScriptedHandler(imageBytes: 64 << 20)
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.request(1, Call(Methods.Image.self, .team("emelec")))
            try await server.waitFor("a chunk waiting for room") { $0.pausedStreams == 1 }
            try client.send { try $0.appendCancel(id: 1, to: &$1) }
            try client.request(2, Call(Methods.Ping.self))

            // A cancel purges nothing already queued: every chunk queued before it still arrives.
            var received = 0
            while let frame = try await client.nextFrame(), frame.requestID != 2 {
                if frame.kind == .streamChunk { received += frame.payload.count }
            }
            let stream = try await poll("request 1's entry") { server.log.stream(of: 1) }
            #expect(stream.outcome == .cancelled)
            #expect(stream.bytes == received)
        }
    }
}

@Suite("Server: streams with a known digest")
struct KnownDigestStreamingTests {
    /// Streams 300 KiB whose digest the handler says it knows: here a made-up one, so that only a
    /// server that sends it as it is, without hashing the bytes, puts it in the end frame.
    struct KnownDigest: RequestHandler {
        static let claimed = Data(repeating: 0xAB, count: 32)

        func handle(_ request: Request, context: RequestContext) async -> HandlerOutcome {
            .stream(OutgoingStream(
                header: StreamHeader(contentType: "image/png", totalSize: 300 << 10, source: .cache),
                chunks: GeneratedBytes(total: 300 << 10, produced: Counter(), terminated: Gate()),
                sha256: Self.claimed))
        }
    }

    @Test("A stream whose SHA-256 is already known ends with that digest; the bytes are not hashed again")
    func knownDigestIsSentAsItIs() async throws {
        try await TestServer.run(handler: KnownDigest()) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.request(1, Call(Methods.Image.self, .team("emelec")))
            var received = 0
            while let frame = try await client.nextFrame() {
                if frame.kind == .streamChunk { received += frame.payload.count }
                if frame.kind == .streamEnd {
                    let end = try CBORDecoder().decode(StreamEnd.self, from: frame.payload)
                    #expect(end.sha256 == KnownDigest.claimed)
                    #expect(end.totalBytes == 300 << 10)
                    break
                }
            }
            #expect(received == 300 << 10)
        }
    }
}

@Suite("LigasClient: a stream is checked against its end frame")
struct ClientStreamIntegrityTests {
    @Test("Bytes that do not match the daemon's SHA-256 end the download with integrityCheckFailed, after every chunk")
    func digestMismatch() async throws {
        try await TestServer.run(handler: KnownDigestStreamingTests.KnownDigest()) { server in
            let client = try await LigasClient.connect(socketPath: server.path, agent: "test")
            defer { client.close() }
            var received = 0
            do {
                for try await chunk in try await client.image(.team("emelec")) { received += chunk.count }
                Issue.record("the download ended well")
            } catch ClientError.integrityCheckFailed(let reason) {
                #expect(reason.contains("SHA-256"))
            }
            #expect(received == 300 << 10)
        }
    }

    @Test("Bytes that match end the download quietly")
    func digestMatches() async throws {
        try await TestServer.run(handler: ScriptedHandler(imageBytes: 300_000)) { server in
            let client = try await LigasClient.connect(socketPath: server.path, agent: "test")
            defer { client.close() }
            var bytes = Data()
            for try await chunk in try await client.image(.team("emelec")) { bytes.append(chunk) }
            #expect(bytes == GeneratedBytes.expected(300_000))
        }
    }
}

@Suite("LigasClient: an image asked for by a cancelled task")
struct ClientCancelledStreamTests {
    @Test("A task cancelled before it asks for an image gets CancellationError, and the daemon never hears of the request")
    func cancelledBeforeAsking() async throws {
        try await TestServer.run { server in
            let client = try await LigasClient.connect(socketPath: server.path, agent: "test")
            defer { client.close() }
            let attempt = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.image(.team("emelec"))
            }
            await #expect(throws: CancellationError.self) { _ = try await attempt.value }

            // A request sent on the connection is read before the ping that follows it, and
            // counted then (in flight, or served once cancelled): only the ping is.
            try await client.ping()
            let counters = server.server.statistics()
            #expect(counters.requestsServed + UInt64(counters.inFlightRequests) == 1)
        }
    }

    @Test("A download abandoned mid-stream: the client reads on, so what the daemon sent before the cancel does not wait in the socket")
    func abandonedDownloadIsDrained() async throws {
        let handler = ScriptedHandler(imageBytes: 16 << 20)
        try await TestServer.run(handler: handler) { server in
            let client = try await LigasClient.connect(socketPath: server.path, agent: "test")
            defer { client.close() }
            // One chunk taken, then nothing until the client has stopped reading at its bound and
            // the socket and the daemon's queue are full; breaking out drops the iteration, which
            // cancels.
            for try await _ in try await client.image(.team("emelec")) {
                // Once both have paused they stay so: the consumer takes nothing more.
                try await poll("the client and the stream paused") {
                    client.flowStatistics.pauses >= 1 && server.server.statistics().pausedStreams == 1 ? () : nil
                }
                #expect(client.flowStatistics.unreadInSocket > 0)
                break
            }
            await handler.streamTerminated.wait()
            try await poll("the client read what the daemon sent before the cancel") {
                client.flowStatistics.unreadInSocket == 0 ? () : nil
            }
            try await client.ping()  // and the connection goes on
        }
    }
}
