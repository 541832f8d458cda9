import Dispatch
import Foundation
import Glibc
@testable import LigasClient
import LigasProtocol
import LigasSampleDataLocation
import LigasTestSupport
import Testing

/// The Swift client library over real sockets: against a scripted peer where the daemon cannot be
/// made to misbehave on cue, and against the real ligasd.
// Serialized: its two large-image tests each push images through a debug ligasd and the client
// for several seconds; run together, on two cores, they starved the rest of the suite's tests.
@Suite("LigasClient library", .serialized)
struct ClientLibraryTests {
    @Test("A request whose write fails reports the daemon's error frame already on the socket, not a bare closed connection")
    func failedWriteReportsTheErrorFrame() async throws {
        let directory = TemporaryDirectory()
        let path = directory.url.appendingPathComponent("peer.sock").path
        let listener = try UnixSocket.listening(at: path)
        let listening = listener.fileDescriptor
        let stopping = ErrorBody(code: .shuttingDown, message: "ligasd is stopping")
        // The peer says hello, waits for the request to start arriving, then sends an error frame
        // (id 0) and closes without reading the rest: the client's write of its large request
        // then fails (EPIPE) while the error frame waits in its socket (PROTOCOL.md §6).
        let peer = Self.runBlocking {
            let fd = accept(listening, nil, nil)
            guard fd >= 0 else { throw SocketCallError("accept", errno: errno) }
            defer { close(fd) }
            _ = try Self.readFrame(fd)  // the client's hello
            var bytes: [UInt8] = []
            try FrameEncoder().appendHello(Hello(agent: "scripted-peer"), to: &bytes)
            try Self.writeAll(fd, bytes)
            var buffer = [UInt8](repeating: 0, count: 4096)
            guard read(fd, &buffer, buffer.count) > 0 else { throw SocketCallError("read", errno: errno) }
            bytes = []
            try FrameEncoder().appendError(id: 0, stopping, to: &bytes)
            try Self.writeAll(fd, bytes)
        }
        let client = try await LigasClient.connect(socketPath: path)
        defer { client.close() }
        // Far more than a Unix socket buffers (about 200 KiB), under the 1 MiB frame limit.
        let huge = String(repeating: "a", count: 900_000)
        await #expect(throws: ClientError.server(stopping)) { try await client.teams(league: huge) }
        try await peer.value
        withExtendedLifetime(listener) {}
    }

    @Test("A daemon that stops reading: a request it does not take fails with timedOut once the write stalls past its limit, and the connection closes")
    func stalledWriteTimesOut() async throws {
        let directory = TemporaryDirectory()
        let path = directory.url.appendingPathComponent("peer.sock").path
        let listener = try UnixSocket.listening(at: path)
        let listening = listener.fileDescriptor
        // The peer says hello, then never reads again; it reports whether the client hung up.
        let peer = Task {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
                Thread.detachNewThread {
                    continuation.resume(with: Result {
                        let fd = accept(listening, nil, nil)
                        guard fd >= 0 else { throw SocketCallError("accept", errno: errno) }
                        defer { close(fd) }
                        _ = try Self.readFrame(fd)  // the client's hello
                        var bytes: [UInt8] = []
                        try FrameEncoder().appendHello(Hello(agent: "stalled-peer"), to: &bytes)
                        try Self.writeAll(fd, bytes)
                        // Readable already (the request's first bytes): wait for the hang-up alone.
                        var hangUp = pollfd(fd: fd, events: 0, revents: 0)
                        return poll(&hangUp, 1, 20_000) == 1 && hangUp.revents & Int16(POLLHUP) != 0
                    })
                }
            }
        }
        let client = try await LigasClient.connect(socketPath: path, agent: "test", requestDeadline: nil) {
            ClientConnection(socket: $0, writeStallLimit: .milliseconds(300))
        }
        defer { client.close() }
        // Far more than a Unix socket buffers (about 200 KiB), under the 1 MiB frame limit.
        let huge = String(repeating: "a", count: 900_000)
        await #expect(throws: ClientError.daemonNotReading(.milliseconds(300))) { try await client.teams(league: huge) }
        #expect(try await peer.value, "the client closed the connection")
        withExtendedLifetime(listener) {}
    }

    @Test("A slow consumer of a 4 MiB image: the client stops reading at its bound, buffers no more, and the image still verifies")
    func slowConsumerIsBounded() async throws {
        let payload = Self.largeImage
        try await DaemonEndToEndTests.withDaemon(remote: Self.servingLargeImages) { daemon, _ in
            let client = try await daemon.client()
            defer { client.close() }
            let download = try await client.image(.team("emelec"))
            let bound = ClientConnection.highWater + client.session.chunkSize
            var chunks = download.makeAsyncIterator()
            // Take nothing until the client has stopped reading its socket (or, were there no
            // flow control, until it has buffered more than the bound).
            try await poll("the client to stop reading its socket", timeout: .seconds(30)) {
                let flow = client.flowStatistics
                return flow.pauses > 0 || flow.buffered > bound ? true : nil
            }
            var received = Data()
            var count = 0
            while let chunk = try await chunks.next() {
                received.append(chunk)
                count += 1
                if count % 8 == 0 { try await Task.sleep(for: .milliseconds(1)) }  // and then slowly
            }
            let flow = client.flowStatistics
            #expect(flow.peakBuffered <= bound, "peak \(flow.peakBuffered) bytes, bound \(bound)")
            #expect(flow.pauses >= 1)
            #expect(flow.buffered == 0)
            #expect(received.count == payload.count)
            #expect(received == payload)
            // The connection still answers after all that.
            try await client.ping()
        }
    }

    @Test("Two streams on one connection read one after the other, and a ping meanwhile: flow control never deadlocks them")
    func streamsReadInTurnDoNotDeadlock() async throws {
        let payload = Self.largeImage
        try await DaemonEndToEndTests.withDaemon(remote: Self.servingLargeImages) { daemon, _ in
            let client = try await daemon.client()
            defer { client.close() }
            // Only against a hung test: were they deadlocked, closing fails the waits instead.
            let watchdog = Task {
                try await Task.sleep(for: .seconds(60))
                client.close()
            }
            defer { watchdog.cancel() }
            let first = try await client.image(.team("emelec"))
            let second = try await client.image(.team("barcelona-sc"))
            try await poll("the client to stop reading its socket", timeout: .seconds(30)) {
                client.flowStatistics.pauses > 0 ? true : nil
            }
            try await client.ping()  // its answer comes behind the paused streams' chunks
            var secondBytes = Data()
            for try await chunk in second { secondBytes.append(chunk) }  // the first one's buffer is full meanwhile
            var firstBytes = Data()
            for try await chunk in first { firstBytes.append(chunk) }
            #expect(secondBytes == payload)
            #expect(firstBytes == payload)
            #expect(client.flowStatistics.buffered == 0)
        }
    }

    /// The sample data, with `largeImage` for every image.
    @Sendable static func servingLargeImages(_ path: String) -> LoopbackHTTPServer.Reply {
        path.hasPrefix("/images/") ? .ok(largeImage, contentType: "image/png") : .file(root: BundledSampleData.baseURL)
    }

    /// 4 MiB, more than the whole pipeline holds (the client's 1 MiB, the socket's buffers and the
    /// daemon's 512 KiB of output): a random block of a prime size repeated, so chunk boundaries
    /// never line up with its repeats and chunks out of order would show.
    static let largeImage: Data = {
        var generator = SeededGenerator(seed: 0x5_10)
        let block = (0..<(62_501 / 8 + 1)).map { _ in generator.next() }.withUnsafeBytes { Data($0.prefix(62_501)) }
        var image = Fixtures.png
        while image.count < 4 << 20 { image.append(block) }
        return image
    }()

    // MARK: - Blocking helpers for the scripted peer (off the cooperative pool)

    static func runBlocking(_ body: @escaping @Sendable () throws -> Void) -> Task<Void, any Error> {
        Task {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
            }
        }
    }

    static func readExactly(_ fd: Int32, _ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, count - offset) }
            guard got > 0 else { throw SocketCallError("read", errno: got == 0 ? ECONNRESET : errno) }
            offset += got
        }
        return bytes
    }

    /// One frame: the 4-byte big-endian length, then that many bytes.
    static func readFrame(_ fd: Int32) throws -> [UInt8] {
        let length = try readExactly(fd, 4).reduce(0) { $0 << 8 | Int($1) }
        return try readExactly(fd, length)
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw SocketCallError("send", errno: errno) }
            offset += written
        }
    }
}
