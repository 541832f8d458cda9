import Crypto
import Foundation
import LigasProtocol
import LigasServer
import LigasTestSupport
import Synchronization
import Testing

/// A stream a request's task answers with whose pieces are ready to read (a cached image in the
/// cache file): the task hands it to the connection's queue, which reads a piece and sends a chunk
/// per turn, as it does for a stream ready in memory.
@Suite("Server: a ready stream a task hands over")
struct HandedOverStreamTests {
    /// 300,000 bytes in pieces of uneven sizes, one of them empty and one larger than the chunk
    /// size; `failing` makes that piece throw instead, and the n-th answer waits for `gates[n-1]`
    /// to open, when there is one. `readInATask` counts the pieces read by a task rather than
    /// by the connection's queue. With `handsOver` false, the same bytes come as a stream the
    /// task sends itself.
    struct PiecesHandler: RequestHandler {
        static let bytes = GeneratedBytes.expected(300_000)
        static let cuts = [0, 1000, 1000, 90_000, 250_000, 300_000]
        var failing: Int?
        var gates: [Gate] = []
        var handsOver = true
        let calls = Counter()
        let readInATask = Counter()

        func handle(_ request: Request, context: RequestContext) async -> HandlerOutcome {
            let call = calls.add(1)
            if call <= gates.count { await gates[call - 1].wait() }
            let header = StreamHeader(contentType: "image/png", totalSize: UInt64(Self.bytes.count), source: .cache)
            let ready = ReadyStream(header: header, pieceCount: Self.cuts.count - 1, sha256: Data(SHA256.hash(data: Self.bytes))) {
                [failing, readInATask] index in
                if withUnsafeCurrentTask(body: { $0 != nil }) { readInATask.add(1) }
                if index == failing { throw ErrorBody(code: .internal, message: "the cache changed under the stream") }
                return Self.bytes[Self.cuts[index]..<Self.cuts[index + 1]]
            }
            if handsOver { return .readyStream(ready) }
            var outgoing = OutgoingStream(header: header, chunks: OutgoingStream(ready).chunks)
            outgoing.sha256 = ready.sha256
            return .stream(outgoing)
        }
    }

    @Test("Every piece in order, re-cut to chunks no larger than the negotiated size, an end with the SHA-256, one entry")
    func everyPiece() async throws {
        let handler = PiecesHandler()
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello(chunkSize: 40_000)
            try client.request(1, Call(Methods.Image.self, .team("emelec")))
            let (header, chunkSizes, bytes, end) = try await client.stream(1)
            #expect(header.totalSize == 300_000)
            #expect(chunkSizes.allSatisfy { $0 > 0 && $0 <= 40_000 })
            #expect(bytes == PiecesHandler.bytes)
            #expect(end.totalBytes == 300_000)
            #expect(end.sha256 == Data(SHA256.hash(data: bytes)))
            let entry = try await poll("request 1's entry") { server.log.stream(of: 1) }
            #expect(entry.outcome == .complete)
            #expect(entry.bytes == 300_000)
            #expect(entry.chunks == chunkSizes.count)
            try await server.waitFor("the request counted as served, once") { $0.inFlightRequests == 0 && $0.requestsServed == 1 }
            #expect(handler.readInATask.total == 0)  // every piece read by the connection's queue
        }
    }

    @Test("A piece that cannot be read ends the stream with its error after the chunks already sent; the entry says failed")
    func pieceFails() async throws {
        try await TestServer.run(handler: PiecesHandler(failing: 3)) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello(chunkSize: 40_000)
            try client.request(1, Call(Methods.Image.self, .team("emelec")))
            var received = Data()
            var last: Frame?
            while let frame = try await client.nextFrame() {
                if frame.kind == .streamChunk { received.append(contentsOf: frame.payload) }
                if frame.kind == .error || frame.kind == .streamEnd {
                    last = frame
                    break
                }
            }
            #expect(last?.kind == .error)
            #expect(received == PiecesHandler.bytes[0..<90_000])  // pieces 0–2, and nothing of piece 3
            let entry = try await poll("request 1's entry") { server.log.stream(of: 1) }
            #expect(entry.outcome == .failed)
            #expect(server.log.written.first { $0.requestID == 1 }?.errorCode == .internal)
            try client.request(2, Call(Methods.Ping.self))
            #expect(try await client.nextFrame()?.requestID == 2)  // the connection goes on
        }
    }

    @Test(
        "A request cancelled and its id at once asked again (PROTOCOL.md §6 forbids it): its task's answer, handed over or streamed by the task itself, goes out under neither",
        arguments: [true, false])
    func cancelledThenReused(handsOver: Bool) async throws {
        let (first, second) = (Gate(), Gate())
        let handler = PiecesHandler(gates: [first, second], handsOver: handsOver)
        try await TestServer.run(handler: handler) { server in
            let client = try RawClient(path: server.path)
            _ = try await client.hello()
            try client.request(1, Call(Methods.Image.self, .team("emelec")))
            try await poll("the first request reached the handler") { handler.calls.total == 1 ? () : nil }
            try client.send { try $0.appendCancel(id: 1, to: &$1) }
            try client.request(1, Call(Methods.Image.self, .team("emelec")))
            try await poll("the second request reached the handler") { handler.calls.total == 2 ? () : nil }
            first.open()  // the first task answers while id 1 is the second request's
            let cancelled = try await poll("the first task's entry") { server.log.stream(of: 1) }
            #expect(cancelled.outcome == .cancelled)
            #expect(cancelled.bytes == 0)
            second.open()
            let (_, _, bytes, _) = try await client.stream(1)
            #expect(bytes == PiecesHandler.bytes)  // the second stream alone: one header, its bytes, its end
            try await poll("the second stream's entry") { server.log.streams(of: 1).count == 2 ? () : nil }
            #expect(server.log.streams(of: 1).map(\.outcome) == [.cancelled, .complete])
            try client.request(2, Call(Methods.Ping.self))
            #expect(try await client.nextFrame()?.requestID == 2)  // nothing more came for id 1
        }
    }
}
