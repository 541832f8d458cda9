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

@Suite("Load image data from cache: small images kept in memory")
struct RememberedImagesTests {
    let store = ImageStoreSpy()
    let clock = TestClock()
    let url = URL(string: "https://ligas.test/images/teams/emelec.png")!
    let other = URL(string: "https://ligas.test/images/teams/barcelona.png")!
    let digest = Data(repeating: 0x5A, count: 32)

    func sut(rememberingAtMost maxBytes: Int = 4096, imagesOfAtMost maxImageBytes: Int = 2048) -> LocalImageLoader {
        LocalImageLoader(
            store: store, currentDate: clock.currentDate, chunkSize: 300,
            rememberingAtMost: maxBytes, imagesOfAtMost: maxImageBytes)
    }

    func stub(_ url: URL, size: Int, sha256: Data? = nil) -> Data {
        let bytes = Fixtures.pngImage(size: size)
        store.stub(url, CachedImage(image: ImageData(bytes: bytes, contentType: "image/png"), timestamp: clock.now), sha256: sha256 ?? digest)
        return bytes
    }

    func collect(_ loaded: Loaded<ImageStream>) async throws -> Data {
        try await loaded.value.collect().bytes
    }

    @Test("A small image read once is delivered from memory after: the same bytes and digest, the store read once")
    func readOnceThenFromMemory() async throws {
        let bytes = stub(url, size: 1000)
        let loader = sut()

        #expect(loader.loadFromMemory(url) == nil)
        let first = try await loader.load(url)
        #expect(try await collect(first) == bytes)
        #expect(first.value.sha256 == digest)
        let second = try await loader.load(url)
        #expect(try await collect(second) == bytes)
        let now = try #require(loader.loadFromMemory(url))

        #expect(now.origin == .cache)
        #expect(now.value.image.bytes == bytes)
        #expect(now.value.sha256 == digest)
        #expect(store.messages == [.retrieve(url)])
    }

    @Test("An image larger than the per-image bound is streamed from the store every time")
    func largeImagesAreNotKept() async throws {
        _ = stub(url, size: 3000)
        let loader = sut()

        _ = try await collect(loader.load(url))
        _ = try await collect(loader.load(url))

        #expect(loader.loadFromMemory(url) == nil)
        #expect(store.messages == [.retrieve(url), .retrieve(url)])
    }

    @Test("An image whose digest the store does not know is not kept")
    func imagesWithoutDigestAreNotKept() async throws {
        let bytes = Fixtures.pngImage(size: 1000)
        store.stub(url, CachedImage(image: ImageData(bytes: bytes, contentType: "image/png"), timestamp: clock.now))
        let loader = sut()

        _ = try await collect(loader.load(url))

        #expect(loader.loadFromMemory(url) == nil)
    }

    @Test("An image kept in memory expires like a stored one: not-cached after seven days, and not ready now")
    func expiresInMemoryToo() async throws {
        _ = stub(url, size: 1000)
        let loader = sut()
        _ = try await collect(loader.load(url))

        clock.advance(by: .sevenDays)

        #expect(loader.loadFromMemory(url) == nil)
        await #expect(throws: LigasError.noCache) { try await loader.load(url) }
    }

    @Test("Saving an image first marks those in memory used (least recently used first), then forgets them: the store may evict some to make room")
    func savingForgets() async throws {
        let third = URL(string: "https://ligas.test/images/teams/liga.png")!
        _ = stub(url, size: 1000)
        _ = stub(third, size: 1000)
        let loader = sut()
        _ = try await collect(loader.load(url))
        _ = try await collect(loader.load(third))
        _ = try await collect(loader.load(url))  // from memory: url is now the most recently used

        try loader.save(ImageData(bytes: Fixtures.png, contentType: "image/png"), for: other)

        #expect(loader.loadFromMemory(url) == nil)
        _ = try await collect(loader.load(url))
        #expect(store.messages == [.retrieve(url), .retrieve(third), .markUsed([third, url]), .insert(other), .retrieve(url)])
    }

    @Test("An image read while a save runs is not kept: it may be older than what the store then holds")
    func readDuringSaveIsNotKept() async throws {
        let bytes = Fixtures.pngImage(size: 1000)
        let racing = RacingStore(image: CachedImage(image: ImageData(bytes: bytes, contentType: "image/png"), timestamp: clock.now), sha256: digest)
        let loader = LocalImageLoader(store: racing, currentDate: clock.currentDate)
        racing.whileReading = { try? loader.save(ImageData(bytes: Fixtures.png, contentType: "image/png"), for: url) }

        #expect(try await collect(loader.load(url)) == bytes)  // what was read is delivered...

        #expect(loader.loadFromMemory(url) == nil)  // ...but not kept
    }

    @Test("Images in memory stay under their total bound, the least recently used going first")
    func boundedInAll() async throws {
        let third = URL(string: "https://ligas.test/images/teams/liga.png")!
        for each in [url, other, third] { _ = stub(each, size: 1500) }
        let loader = sut(rememberingAtMost: 3200, imagesOfAtMost: 2048)

        _ = try await collect(loader.load(url))
        _ = try await collect(loader.load(other))
        _ = try await collect(loader.load(url))  // from memory: other is now the least recently used
        _ = try await collect(loader.load(third))

        #expect(loader.loadFromMemory(url) != nil)
        #expect(loader.loadFromMemory(other) == nil)
        #expect(loader.loadFromMemory(third) != nil)
    }

    @Test("Copies of the loader share what it keeps in memory")
    func copiesShare() async throws {
        _ = stub(url, size: 1000)
        let loader = sut()
        let copy = loader

        _ = try await collect(loader.load(url))

        #expect(copy.loadFromMemory(url) != nil)
    }
}

/// A store whose image read runs `whileReading` before it returns the bytes: a save that
/// completes while a load reads.
final class RacingStore: ImageDataStore, @unchecked Sendable {
    let image: CachedImage
    let sha256: Data
    var whileReading: () -> Void = {}

    init(image: CachedImage, sha256: Data) {
        self.image = image
        self.sha256 = sha256
    }

    func retrieveImage(for url: URL) throws -> CachedImage? { image }

    func openImage(for url: URL) throws -> StoredImage? {
        let bytes = image.image.bytes
        return StoredImage(
            contentType: image.image.contentType, size: bytes.count, timestamp: image.timestamp, pieceCount: 1,
            sha256: sha256, piece: { [self] _ in
                whileReading()
                return bytes
            })
    }

    func insertImage(_ image: CachedImage, for url: URL) throws {}
    func deleteImages(savedAtOrBefore cutoff: Date) throws -> Int { 0 }
}
