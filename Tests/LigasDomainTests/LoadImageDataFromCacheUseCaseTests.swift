import Foundation
import LigasDomain
import LigasTestSupport
import Testing

@Suite("Load image data from cache")
struct LoadImageDataFromCacheUseCaseTests {
    let store = ImageStoreSpy()
    let clock = TestClock()
    let url = URL(string: "https://ligas.test/images/teams/emelec.png")!

    func sut(chunkSize: Int = 64 * 1024) -> LocalImageLoader {
        LocalImageLoader(store: store, currentDate: clock.currentDate, chunkSize: chunkSize)
    }

    @Test("Delivers cached image data, in chunks, when it is less than seven days old")
    func deliversCachedChunks() async throws {
        let bytes = Fixtures.pngImage(size: 1000)
        store.stub(url, CachedImage(image: ImageData(bytes: bytes, contentType: "image/png"), timestamp: clock.now))

        let loaded = try await sut(chunkSize: 300).load(url)
        var chunks: [Data] = []
        for try await chunk in loaded.value { chunks.append(chunk) }

        #expect(loaded.origin == .cache)
        #expect(loaded.value.contentType == "image/png")
        #expect(loaded.value.expectedLength == 1000)
        #expect(chunks.map(\.count) == [300, 300, 300, 100])
        #expect(Data(chunks.joined()) == bytes)
    }

    @Test("Delivers not-cached when the image is missing")
    func missing() async {
        await #expect(throws: LigasError.noCache) { try await sut().load(url) }
    }

    @Test("Delivers not-cached when the image has expired")
    func expired() async {
        store.stub(url, CachedImage(
            image: ImageData(bytes: Fixtures.png, contentType: "image/png"),
            timestamp: clock.now.addingTimeInterval(-.sevenDays)))

        await #expect(throws: LigasError.noCache) { try await sut().load(url) }
    }

    @Test("Delivers the store's error when retrieval fails")
    func retrievalError() async {
        store.failRetrieval(with: Fixtures.AnyError("io"))

        await #expect(throws: Fixtures.AnyError("io")) { try await sut().load(url) }
    }

    @Test("Cancel course: a cancelled consumer receives neither data nor error")
    func cancelledConsumerGetsNothing() async throws {
        store.stub(url, CachedImage(image: ImageData(bytes: Fixtures.pngImage(size: 10_000), contentType: "image/png"), timestamp: clock.now))
        let stream = try await sut(chunkSize: 100).load(url).value

        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var received = 0
            for try await chunk in stream { received += chunk.count }
            return received
        }

        #expect(try await task.value == 0)
    }
}

@Suite("Cache image data")
struct CacheImageDataUseCaseTests {
    let store = ImageStoreSpy()
    let clock = TestClock()
    let url = URL(string: "https://ligas.test/images/teams/emelec.png")!

    @Test("Saves the image under its URL, stamped with the current date")
    func savesUnderURL() throws {
        let image = ImageData(bytes: Fixtures.png, contentType: "image/png")

        try LocalImageLoader(store: store, currentDate: clock.currentDate).save(image, for: url)

        #expect(store.images[url] == CachedImage(image: image, timestamp: clock.now))
    }

    @Test("Delivers the store's error when insertion fails")
    func insertionError() {
        store.failInsertion(with: Fixtures.AnyError("full"))

        #expect(throws: Fixtures.AnyError("full")) {
            try LocalImageLoader(store: store, currentDate: clock.currentDate)
                .save(ImageData(bytes: Fixtures.png, contentType: "image/png"), for: url)
        }
    }
}
