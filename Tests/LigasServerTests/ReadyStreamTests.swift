import Crypto
import Foundation
import LigasProtocol
import LigasServer
import LigasTestSupport
import Testing

/// A stream whose bytes are all in memory (a small cached image) is sent by the connection's queue
/// itself, with no task: the same frames, limits and log entry as any stream.
@Suite("Server: a stream ready in memory")
struct ReadyStreamTests {
    @Test("Sent from the read handler, no task: a header, chunks no larger than the negotiated size, an end with its SHA-256, one entry")
    func completeReadyStream() async throws {
        let handler = ScriptedHandler(imageBytes: 300_000)
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello(chunkSize: 40_000)
            try client.request(1, Call(Methods.Image.self, .team("ready")))

            let (header, chunkSizes, bytes, end) = try await client.stream(1)
            #expect(header.totalSize == 300_000)
            #expect(header.source == .cache)
            #expect(chunkSizes.allSatisfy { $0 <= 40_000 })
            #expect(bytes == GeneratedBytes.expected(300_000))
            #expect(end.totalBytes == 300_000)
            #expect(end.sha256 == Data(SHA256.hash(data: bytes)))
            #expect(handler.handled.total == 0)
            let entry = try await poll("request 1's entry") { server.log.stream(of: 1) }
            #expect(entry.outcome == .complete)
            #expect(entry.bytes == 300_000)
            #expect(entry.chunks == chunkSizes.count)
            try await server.waitFor("the request counted as served") { $0.inFlightRequests == 0 && $0.requestsServed == 1 }
        }
    }

    @Test("Cancel mid-stream: nothing more for that id but what was queued, the connection goes on, and the entry counts what was sent")
    func cancelMidStream() async throws {
        var limits = ServerLimits()
        limits.streamHighWater = 256 << 10
        let handler = ScriptedHandler(imageBytes: 4 << 20)
        try await TestServer.run(limits: limits, handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.request(1, Call(Methods.Image.self, .team("ready")))
            try await server.waitFor("a chunk waiting for room") { $0.pausedStreams == 1 }
            try client.send { try $0.appendCancel(id: 1, to: &$1) }
            try client.request(2, Call(Methods.Ping.self))

            var received = 0
            var afterHeader: [FrameKind] = []
            while let frame = try await client.nextFrame(), frame.requestID != 2 {
                afterHeader.append(frame.kind)
                if frame.kind == .streamChunk { received += frame.payload.count }
            }
            #expect(!afterHeader.contains(.streamEnd))
            #expect(!afterHeader.contains(.error))
            #expect(received < 4 << 20)
            let entry = try await poll("request 1's entry") { server.log.stream(of: 1) }
            #expect(entry.outcome == .cancelled)
            #expect(entry.bytes == received)
            try await server.waitFor("nothing in flight") { $0.inFlightRequests == 0 && $0.pausedStreams == 0 }
        }
    }

    @Test("A client that stops reading: the stream waits for room, still in flight, and other clients are unaffected")
    func clientStopsReading() async throws {
        var limits = ServerLimits()
        limits.streamHighWater = 256 << 10
        try await TestServer.run(limits: limits, handler: ScriptedHandler(imageBytes: 4 << 20)) { server in
            let reader = try RawClient(path: server.path)
            _ = try await reader.hello()
            try reader.request(1, Call(Methods.Image.self, .team("ready")))
            try await server.waitFor("stream paused") { $0.pausedStreams == 1 && $0.inFlightRequests == 1 }

            let other = try RawClient(path: server.path)
            _ = try await other.hello()
            try other.request(1, Call(Methods.Ping.self))
            #expect(try await other.nextFrame()?.kind == .response)
        }
    }

    @Test("A client that disconnects mid-stream: the request ends, its entry says cancelled, and the server carries on")
    func disconnectMidStream() async throws {
        var limits = ServerLimits()
        limits.streamHighWater = 256 << 10
        try await TestServer.run(limits: limits, handler: ScriptedHandler(imageBytes: 4 << 20)) { server in
            do {
                let client = try RawClient(path: server.path)
                _ = try await client.hello()
                try client.request(1, Call(Methods.Image.self, .team("ready")))
                try await server.waitFor("stream paused") { $0.pausedStreams == 1 }
            }
            try await server.waitFor("connection gone") { $0.openConnections == 0 && $0.inFlightRequests == 0 && $0.pausedStreams == 0 }
            let entry = try await poll("request 1's entry") { server.log.stream(of: 1) }
            #expect(entry.outcome == .cancelled)
            let other = try RawClient(path: server.path)
            _ = try await other.hello()
            try other.request(1, Call(Methods.Ping.self))
            #expect(try await other.nextFrame()?.kind == .response)
        }
    }

    @Test("An id cancelled and at once asked again (PROTOCOL.md §6 forbids it): the cancelled stream sends nothing under the new request")
    func reusedIDAfterCancel() async throws {
        let size = 64 << 10
        try await TestServer.run(handler: ScriptedHandler(imageBytes: size)) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello(chunkSize: 32)
            var bytes: [UInt8] = []
            let encoder = FrameEncoder()
            let image = Request(Call(Methods.Image.self, .team("ready")))
            try encoder.appendRequest(id: 5, image, to: &bytes)
            try encoder.appendCancel(id: 5, to: &bytes)
            try encoder.appendRequest(id: 5, image, to: &bytes)
            client.send(bytes)

            var headers = 0
            var ends: [StreamEnd] = []
            var sinceLastHeader = 0
            while ends.isEmpty, let message = try await client.nextMessage() {
                switch message {
                case .streamStart(5, _): headers += 1; sinceLastHeader = 0
                case .streamChunk(5, let chunk): sinceLastHeader += chunk.count
                case .streamEnd(5, let end): ends.append(end)
                default: throw RawClientError.unexpected("\(message)")
                }
            }
            #expect(headers == 2)
            #expect(ends.first?.totalBytes == UInt64(size))
            #expect(sinceLastHeader == size)  // the second stream's bytes alone, after its header
            try client.request(6, Call(Methods.Ping.self))
            #expect(try await client.nextFrame()?.requestID == 6)  // nothing more for id 5 came first
            let entries = server.log.streams(of: 5)
            #expect(entries.map(\.outcome) == [.cancelled, .complete])
        }
    }

    /// Answers every image with a ready stream from `handle`, in a task (the server supports it
    /// there too, as any stream).
    struct ReadyFromATask: RequestHandler {
        static let bytes = GeneratedBytes.expected(100_000)

        func handle(_ request: Request, context: RequestContext) async -> HandlerOutcome {
            .readyStream(ReadyStream(
                header: StreamHeader(contentType: "image/png", totalSize: UInt64(Self.bytes.count), source: .cache),
                bytes: Self.bytes, sha256: Data(SHA256.hash(data: Self.bytes))))
        }
    }

    @Test("A ready stream answered by a task is sent like any stream")
    func readyStreamFromATask() async throws {
        try await TestServer.run(handler: ReadyFromATask()) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello(chunkSize: 40_000)
            try client.request(1, Call(Methods.Image.self, .team("emelec")))
            let (_, _, bytes, end) = try await client.stream(1)
            #expect(bytes == ReadyFromATask.bytes)
            #expect(end.sha256 == Data(SHA256.hash(data: bytes)))
        }
    }
}
