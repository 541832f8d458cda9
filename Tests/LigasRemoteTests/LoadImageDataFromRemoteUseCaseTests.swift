import Foundation
import LigasDomain
import LigasRemote
import LigasTestSupport
import Testing

@Suite("Load image data from remote")
struct LoadImageDataFromRemoteUseCaseTests {
    func withImageServer(
        maxBytes: Int = 1 << 20,
        _ reply: @escaping @Sendable (String) -> LoopbackHTTPServer.Reply,
        _ body: (RemoteImageLoader, URL, LoopbackHTTPServer) async throws -> Void
    ) async throws {
        let server = try await LoopbackHTTPServer.start(reply)
        let client = AsyncHTTPClientAdapter()
        let loader = RemoteImageLoader(client: client, maxBytes: maxBytes)
        let outcome = await asyncResult { try await body(loader, server.baseURL.appendingPathComponent("logo.png"), server) }
        try await client.shutdown()
        try await server.shutdown()
        try outcome.get()
    }

    @Test("Delivers the downloaded image as a stream, marked as coming from the remote")
    func deliversImage() async throws {
        let png = Fixtures.pngImage(size: 200_000)
        try await withImageServer({ _ in .ok(png, contentType: "image/png") }) { loader, url, _ in
            let loaded = try await loader.load(url)
            #expect(loaded.origin == .remote)
            #expect(loaded.value.contentType == "image/png")
            #expect(loaded.value.expectedLength == png.count)
            #expect(try await loaded.value.collect().bytes == png)
        }
    }

    @Test("Accepts an image served with a generic content type when its magic bytes say image")
    func sniffsMagicBytes() async throws {
        try await withImageServer({ _ in .ok(Fixtures.png, contentType: "application/octet-stream") }) { loader, url, _ in
            let loaded = try await loader.load(url)
            #expect(loaded.value.contentType == "image/png")
        }
    }

    @Test("Invalid data: neither an image content type nor image magic bytes, said with where it came from")
    func notAnImage() async throws {
        try await withImageServer({ _ in .ok(json("<html>nope</html>"), contentType: "text/html") }) { loader, url, server in
            await #expect(throws: LigasError.invalidData(
                "not an image (content type text/html) in 127.0.0.1:\(server.port)'s answer for /logo.png")) { try await loader.load(url) }
        }
    }

    @Test("Invalid data: an error page labelled image/png, a format known by its bytes, without them")
    func labelledButNotAnImage() async throws {
        try await withImageServer({ _ in .ok(json("<html>nope</html>"), contentType: "image/png") }) { loader, url, server in
            await #expect(throws: LigasError.invalidData(
                "not an image (content type image/png, but not its bytes) in 127.0.0.1:\(server.port)'s answer for /logo.png")) {
                try await loader.load(url)
            }
        }
    }

    @Test("Bytes known by their signature say their own type: a JPEG served as image/png is image/jpeg; an error page labelled image/jpg (an alias) is refused")
    func bytesOverLabels() async throws {
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 7, count: 100)
        try await withImageServer({ path in
            path.hasSuffix("logo.png") ? .ok(jpeg, contentType: "image/png") : .ok(json("<html>nope</html>"), contentType: "image/jpg")
        }) { loader, url, server in
            let loaded = try await loader.load(url)
            #expect(loaded.value.contentType == "image/jpeg")
            await #expect(throws: LigasError.invalidData(
                "not an image (content type image/jpg, but not its bytes) in 127.0.0.1:\(server.port)'s answer for /photo.jpg")) {
                try await loader.load(server.baseURL.appendingPathComponent("photo.jpg"))
            }
        }
    }

    @Test("Accepts a format not known by its bytes (SVG) on its image content type")
    func formatWithoutSignature() async throws {
        try await withImageServer({ _ in .ok(json("<svg xmlns='http://www.w3.org/2000/svg'/>"), contentType: "image/svg+xml") }) { loader, url, _ in
            let loaded = try await loader.load(url)
            #expect(loaded.value.contentType == "image/svg+xml")
        }
    }

    @Test("Recognises the magic bytes even when they arrive split over several pieces of the body")
    func signatureInPieces() async throws {
        let client = HTTPClientSpy()
        client.complete(status: 200, contentType: "application/octet-stream", body: Fixtures.png, chunkSize: 3)
        let loaded = try await RemoteImageLoader(client: client).load(URL(string: "https://ligas.test/logo.png")!)
        #expect(loaded.value.contentType == "image/png")
        #expect(try await loaded.value.collect().bytes == Fixtures.png)
    }

    @Test("Invalid data: an empty body")
    func empty() async throws {
        try await withImageServer({ _ in .ok(Data(), contentType: "image/png") }) { loader, url, server in
            await #expect(throws: LigasError.invalidData("empty image in 127.0.0.1:\(server.port)'s answer for /logo.png")) {
                try await loader.load(url)
            }
        }
    }

    @Test("Not found: HTTP 404")
    func notFound() async throws {
        try await withImageServer({ _ in .status(404) }) { loader, url, server in
            await #expect(throws: LigasError.notFound("127.0.0.1:\(server.port) answered HTTP 404 for /logo.png")) { try await loader.load(url) }
        }
    }

    @Test("Invalid data: an image over the size cap")
    func overCap() async throws {
        try await withImageServer(maxBytes: 1000, { _ in .ok(Fixtures.pngImage(size: 5000), contentType: "image/png") }) { loader, url, server in
            await #expect(throws: LigasError.invalidData("127.0.0.1:\(server.port) sent more than 1000 bytes for /logo.png")) { try await loader.load(url) }
        }
    }

    @Test("Invalid data: an endless image stops at the size cap")
    func endlessOverCap() async throws {
        let chunk = Fixtures.png + Data(repeating: 1, count: 4000)
        try await withImageServer(maxBytes: 100_000, { _ in .endless(chunk: chunk, contentType: "image/png") }) { loader, url, server in
            let stream = try await loader.load(url).value
            await #expect(throws: LigasError.invalidData("127.0.0.1:\(server.port) sent more than 100000 bytes for /logo.png")) {
                try await stream.collect()
            }
        }
    }

    @Test("Cancel course: a cancelled download delivers neither data nor error, and the download stops")
    func cancelStopsDownload() async throws {
        let chunk = Fixtures.png + Data(repeating: 1, count: 16_000)
        try await withImageServer({ _ in .endless(chunk: chunk, contentType: "image/png") }) { loader, url, server in
            let stream = try await loader.load(url).value
            let consumer = Task {
                var chunks = 0
                var failures = 0
                do {
                    for try await _ in stream {
                        chunks += 1
                        if chunks == 3 { withUnsafeCurrentTask { $0?.cancel() } }
                    }
                } catch { failures += 1 }
                return (chunks, failures)
            }
            let (chunks, failures) = await consumer.value
            #expect(chunks == 3)
            #expect(failures == 0)
            // The server sees the connection go away: the download really stopped.
            await server.waitForDisconnects(1)
        }
    }
}
