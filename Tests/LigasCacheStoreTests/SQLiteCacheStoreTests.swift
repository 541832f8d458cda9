import Foundation
import LigasCacheStore
import LigasDomain
import LigasTestSupport
import Testing

/// The store against real SQLite files in a fresh temporary directory per test.
@Suite("SQLite cache store")
struct SQLiteCacheStoreTests {
    let directory = TemporaryDirectory()
    var fileURL: URL { directory.url.appendingPathComponent("cache.sqlite") }

    func feed(_ text: String, at seconds: TimeInterval = 1000.5) -> CachedFeed {
        CachedFeed(payload: Data(text.utf8), timestamp: Date(timeIntervalSinceReferenceDate: seconds))
    }

    @Test("Saves and loads a feed across separate store instances, timestamp exact")
    func persistsAcrossInstances() throws {
        try SQLiteCacheStore(fileURL: fileURL).replace("teams/serie-a", with: feed("[1]", at: 123.456789))

        let reopened = try SQLiteCacheStore(fileURL: fileURL)

        #expect(try reopened.retrieve("teams/serie-a") == feed("[1]", at: 123.456789))
        #expect(try reopened.retrieve("teams/serie-b") == nil)
    }

    @Test("Uses WAL mode in one file")
    func walMode() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        try store.replace("k", with: feed("x"))
        #expect(try store.journalMode() == "wal")
    }

    @Test("Replace overwrites the old entry; delete removes it; all feeds lists what is left")
    func replaceAndDelete() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        try store.replace("a", with: feed("old"))
        try store.replace("a", with: feed("new", at: 2000))
        try store.replace("b", with: feed("b"))
        try store.delete("b")
        try store.delete("never-there")

        let all = try store.allFeeds()
        #expect(all.map(\.key) == ["a"])
        #expect(all.map(\.feed) == [feed("new", at: 2000)])
    }

    @Test("Expired and fresh entries are told apart by the cache validation over the real store")
    func validationOverRealFile() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        let clock = TestClock()
        let validation = ValidateCacheUseCase(feeds: store, images: store, currentDate: clock.currentDate)
        let teams = try JSONEncoder().encode(Fixtures.teams("emelec"))
        try store.replace("teams/serie-a", with: CachedFeed(payload: teams, timestamp: clock.now.addingTimeInterval(-.sevenDays)))
        try store.replace("teams/serie-b", with: CachedFeed(payload: teams, timestamp: clock.now.addingTimeInterval(-.sevenDays + 1)))
        try store.insertImage(CachedImage(image: ImageData(bytes: Fixtures.png, contentType: "image/png"), timestamp: clock.now.addingTimeInterval(-.sevenDays)), for: URL(string: "https://x.test/a.png")!)

        let report = try validation.validateCache()

        #expect(report.expiredFeeds == ["teams/serie-a"])
        #expect(report.expiredImages == 1)
        #expect(try SQLiteCacheStore(fileURL: fileURL).allFeeds().map(\.key) == ["teams/serie-b"])
    }

    @Test("A corrupt file is a named error, and the file can be recreated")
    func corruptFile() throws {
        try Data(repeating: 0x42, count: 8192).write(to: fileURL)

        #expect(throws: CacheStoreError.corrupt(path: fileURL.path)) { try SQLiteCacheStore(fileURL: fileURL) }

        let (store, recreated) = try SQLiteCacheStore.openRecreatingIfCorrupt(fileURL: fileURL)
        #expect(recreated)
        try store.replace("a", with: feed("x"))
        #expect(try SQLiteCacheStore(fileURL: fileURL).retrieve("a") == feed("x"))
    }

    @Test("A healthy file is not recreated")
    func healthyFileKept() throws {
        try SQLiteCacheStore(fileURL: fileURL).replace("a", with: feed("keep"))

        let (store, recreated) = try SQLiteCacheStore.openRecreatingIfCorrupt(fileURL: fileURL)

        #expect(!recreated)
        #expect(try store.retrieve("a") == feed("keep"))
    }

    @Test("A read-only location is a named error")
    func readOnlyLocation() throws {
        // procfs refuses new files even to root, unlike a chmod'ed directory.
        let readOnly = URL(fileURLWithPath: "/proc/ligas-\(UUID().uuidString)/cache.sqlite")

        #expect { try SQLiteCacheStore(fileURL: readOnly) } throws: { error in
            if case CacheStoreError.unwritable = error { return true } else { return false }
        }
    }

    @Test("A full disk is a named error, the failed replace rolls back, and the old data stays")
    func diskFull() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL, imageCapacityBytes: 1 << 20, maxFileBytes: 256 * 1024)
        try store.replace("teams/serie-a", with: feed("committed"))

        #expect(throws: CacheStoreError.diskFull) {
            try store.replace("teams/serie-a", with: CachedFeed(payload: Data(repeating: 7, count: 512 * 1024), timestamp: .now))
        }
        #expect(throws: CacheStoreError.diskFull) {
            try store.insertImage(CachedImage(image: ImageData(bytes: Fixtures.pngImage(size: 600_000), contentType: "image/png"), timestamp: .now), for: URL(string: "https://x.test/a.png")!)
        }
        #expect(try store.retrieve("teams/serie-a") == feed("committed"))
        #expect(try SQLiteCacheStore(fileURL: fileURL).retrieve("teams/serie-a") == feed("committed"))
    }
}

@Suite("SQLite image cache")
struct SQLiteImageCacheTests {
    let directory = TemporaryDirectory()
    var fileURL: URL { directory.url.appendingPathComponent("cache.sqlite") }

    func image(_ size: Int) -> CachedImage {
        CachedImage(image: ImageData(bytes: Fixtures.pngImage(size: size), contentType: "image/png"), timestamp: Date(timeIntervalSinceReferenceDate: 5))
    }

    func url(_ name: String) -> URL { URL(string: "https://img.test/\(name).png")! }

    @Test("Saves and loads an image blob by URL across instances")
    func persists() throws {
        try SQLiteCacheStore(fileURL: fileURL).insertImage(image(3000), for: url("a"))

        #expect(try SQLiteCacheStore(fileURL: fileURL).retrieveImage(for: url("a")) == image(3000))
        #expect(try SQLiteCacheStore(fileURL: fileURL).retrieveImage(for: url("b")) == nil)
    }

    @Test("Evicts least-recently-used images to stay under the total size cap")
    func lruEviction() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL, imageCapacityBytes: 1000)
        try store.insertImage(image(400), for: url("a"))
        try store.insertImage(image(400), for: url("b"))
        _ = try store.retrieveImage(for: url("a"))  // a is now more recent than b

        try store.insertImage(image(400), for: url("c"))

        #expect(try store.retrieveImage(for: url("a")) != nil)
        #expect(try store.retrieveImage(for: url("b")) == nil)
        #expect(try store.retrieveImage(for: url("c")) != nil)
        #expect(try store.imageBytes() == 800)
    }

    @Test("Refuses an image larger than the whole cache, keeping the others")
    func tooLarge() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL, imageCapacityBytes: 1000)
        try store.insertImage(image(400), for: url("a"))

        #expect(throws: CacheStoreError.imageLargerThanCapacity(bytes: 1001, capacity: 1000)) {
            try store.insertImage(image(1001), for: url("big"))
        }
        #expect(try store.retrieveImage(for: url("a")) != nil)
    }

    @Test("Replacing an image does not count its old size against the cap")
    func replaceSameURL() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL, imageCapacityBytes: 1000)
        try store.insertImage(image(600), for: url("a"))
        try store.insertImage(image(300), for: url("b"))
        try store.insertImage(image(700), for: url("a"))

        #expect(try store.imageBytes() == 1000)
        #expect(try store.retrieveImage(for: url("b")) != nil)
    }
}
