import Crypto
import Foundation
@testable import LigasCacheStore
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

    @Test("A new file has 64 KiB pages; a file made with 4 KiB pages keeps them and serves its images")
    func pageSize() throws {
        let image = CachedImage(image: ImageData(bytes: Data((0..<300_000).map { UInt8($0 % 251) }), contentType: "image/png"), timestamp: Date(timeIntervalSinceReferenceDate: 7))
        let url = URL(string: "https://example.com/logo.png")!
        try SQLiteCacheStore(fileURL: fileURL).insertImage(image, for: url)
        #expect(try Self.pageSize(of: fileURL) == 65536)

        let older = directory.url.appendingPathComponent("older.sqlite")
        do {
            let connection = try SQLiteConnection(path: older.path, readOnly: false)
            try connection.execute("PRAGMA page_size = 4096")
            // The first thing ligasd writes to a new file (a table of another name would make the
            // file another program's database, which the store refuses).
            try connection.execute("CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        let store = try SQLiteCacheStore(fileURL: older)
        try store.insertImage(image, for: url)
        #expect(try Self.pageSize(of: older) == 4096)
        #expect(try store.retrieveImage(for: url) == image)
    }

    @Test("The -wal file beside the cache stays near 4 MiB: a checkpoint every 4 MiB of log, and cut back after a bigger image")
    func walStaysSmall() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        func insert(_ index: Int, mebibytes: Int) throws {
            // What the bytes are does not matter to the log, only how many (a computed pattern
            // of 20 MiB took seconds in a debug build, holding a thread of the test run's pool).
            let bytes = Data(repeating: UInt8(index), count: mebibytes << 20)
            let image = CachedImage(image: ImageData(bytes: bytes, contentType: "image/png"), timestamp: Date())
            try store.insertImage(image, for: URL(string: "https://example.com/\(index).png")!)
        }
        // One transaction of 8 MiB has to go through the log whole; the small ones after it do not.
        try insert(0, mebibytes: 8)
        for index in 1...12 { try insert(index, mebibytes: 1) }
        let walBytes = try withExtendedLifetime(store) {  // the last close deletes the -wal file
            try FileManager.default.attributesOfItem(atPath: fileURL.path + "-wal")[.size] as? Int ?? 0
        }
        // 20 MiB went through it; SQLite's defaults (1,000 pages, never cut back) would keep all of it.
        #expect(walBytes > 0)
        #expect(walBytes <= 6 << 20)
    }

    @Test("Releasing memory empties the page caches, writer and readers; the data is read again from the file")
    func releaseMemory() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        try store.replace("teams/serie-a", with: feed("kept"))
        #expect(try store.retrieve("teams/serie-a") == feed("kept"))
        // Measured outside any transaction (a new one reads the file's first page back at once).
        let reader = try store.database.read { $0 }
        let before = (reader: reader.cachedPageBytes, writer: try store.database.withWriter { $0.cachedPageBytes })

        store.releaseMemory()

        // SQLite counts its pager's own buffer too, one page: what went is the pages it had read.
        #expect(before.reader - reader.cachedPageBytes >= SQLiteCacheStore.pageSize)
        #expect(try before.writer - store.database.withWriter { $0.cachedPageBytes } >= SQLiteCacheStore.pageSize)
        #expect(try store.retrieve("teams/serie-a") == feed("kept"))
        // And no connection sets room for 20 pages aside at its first read (nothing in the
        // process initialised SQLite before the store's first connection did).
        #expect(SQLiteConnection.configureSQLite == 0)  // SQLITE_OK
    }

    @Test("Every connection's page cache is capped at 2 MiB, writer and readers")
    func pageCacheCap() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        #expect(try store.read { try $0.firstRow("PRAGMA cache_size")?.optionalInt(0) } == -2048)
        #expect(try store.write { try $0.firstRow("PRAGMA cache_size")?.optionalInt(0) } == -2048)
    }

    /// The page size as the file's header gives it (bytes 16-17, big-endian; 1 stands for 65536).
    static func pageSize(of file: URL) throws -> Int {
        let header = try Data(contentsOf: file).prefix(18)
        try #require(header.count == 18, "no SQLite header in \(file.path)")
        let size = Int(header[16]) << 8 | Int(header[17])
        return size == 1 ? 65536 : size
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

    @Test("Another program's lock on the file is waited for (10 s), by the writer and the readers alike, not taken for an unusable file")
    func waitsForAnotherProgramsLock() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        let timeout = "PRAGMA busy_timeout"
        #expect(try store.database.withWriter { try $0.firstRow(timeout)?.optionalInt(0) } == 10_000)
        #expect(try store.database.read { try $0.firstRow(timeout)?.optionalInt(0) } == 10_000)
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
        // 1 MiB: the smallest cap there is with 64 KiB pages (16 pages), most of them the schema's.
        let store = try SQLiteCacheStore(fileURL: fileURL, imageCapacityBytes: 1 << 20, maxFileBytes: 1 << 20)
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

    @Test("A file's image pieces are read without waiting for writes (WAL readers); a cache in memory says its reads may wait")
    func piecesWaitForWritesOnlyInMemory() throws {
        let file = try SQLiteCacheStore(fileURL: fileURL)
        try file.insertImage(image(3000), for: url("a"))
        #expect(try #require(try file.openImage(for: url("a"))).pieceMayWaitForWrites == false)
        let memory = try SQLiteCacheStore.inMemory()
        try memory.insertImage(image(3000), for: url("a"))
        #expect(try #require(try memory.openImage(for: url("a"))).pieceMayWaitForWrites == true)
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

    @Test("Images marked used (served from memory) are evicted after the others, in the order given; unknown URLs are skipped")
    func markedUsedEvictedLast() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL, imageCapacityBytes: 1000)
        try store.insertImage(image(300), for: url("a"))
        try store.insertImage(image(300), for: url("b"))
        try store.insertImage(image(300), for: url("c"))
        store.markUsed([url("b"), url("gone"), url("a")])  // c is now the least recently used, then b

        try store.insertImage(image(300), for: url("d"))
        #expect(try store.retrieveImage(for: url("c")) == nil)
        try store.insertImage(image(300), for: url("e"))
        #expect(try store.retrieveImage(for: url("b")) == nil)
        #expect(try store.retrieveImage(for: url("a")) != nil)
    }

    @Test("Opening the most recently used image again writes nothing; opening an older one makes it the newest")
    func openingTheNewestWritesNothing() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        try store.insertImage(image(400), for: url("a"))
        try store.insertImage(image(400), for: url("b"))
        func lastUsed(_ name: String) throws -> Int? {
            try SQLiteConnection(path: fileURL.path, readOnly: true)
                .firstRow("SELECT last_used FROM image WHERE url = ?", [url(name).absoluteString])?.int(0)
        }
        let newest = try lastUsed("b")
        for _ in 0..<3 { _ = try store.openImage(for: url("b")) }
        #expect(try lastUsed("b") == newest)

        _ = try store.openImage(for: url("a"))
        #expect(try #require(try lastUsed("a")) > #require(newest))
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

    @Test("A big image is streamed in 256 KiB pieces, read only when asked; a replacement meanwhile is a named error")
    func piecewiseReading() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        let big = CachedImage(image: ImageData(bytes: Fixtures.pngImage(size: 600_000), contentType: "image/png"), timestamp: Date(timeIntervalSinceReferenceDate: 5))
        try store.insertImage(big, for: url("big"))

        let opened = try #require(try store.openImage(for: url("big")))
        #expect(opened.size == 600_000)
        #expect(opened.pieceCount == 3)
        let pieces = try (0..<opened.pieceCount).map { try opened.piece($0) }
        #expect(pieces.map(\.count) == [262_144, 262_144, 75_712])
        #expect(pieces.reduce(Data(), +) == big.image.bytes)

        let replacement = CachedImage(image: ImageData(bytes: Fixtures.pngImage(size: 3000), contentType: "image/png"), timestamp: Date(timeIntervalSinceReferenceDate: 6))
        try store.insertImage(replacement, for: url("big"))
        #expect(throws: CacheError.changedWhileReading(key: url("big").absoluteString)) { try opened.piece(0) }
    }

    @Test("A cache file from before the bytes moved into pieces keeps its images, and deleting one deletes its pieces")
    func migratesVersion1Images() throws {
        let old = image(3000)
        do {
            // The v1 layout, as an earlier ligasd left it: bytes inside the image row.
            let v1 = try SQLiteConnection(path: fileURL.path, readOnly: false)
            try v1.execute("""
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1');
                CREATE TABLE feed (key TEXT PRIMARY KEY, payload BLOB NOT NULL, saved_at DOUBLE NOT NULL);
                CREATE TABLE image (url TEXT PRIMARY KEY, content_type TEXT NOT NULL, bytes BLOB NOT NULL,
                    size INTEGER NOT NULL, saved_at DOUBLE NOT NULL, last_used INTEGER NOT NULL);
                CREATE INDEX image_on_last_used ON image(last_used);
                """)
            try v1.run(
                "INSERT INTO image VALUES (?, ?, ?, ?, ?, 1)",
                [url("a").absoluteString, old.image.contentType, old.image.bytes, old.image.bytes.count,
                 old.timestamp.timeIntervalSinceReferenceDate])
        }

        let store = try SQLiteCacheStore(fileURL: fileURL)
        #expect(try store.retrieveImage(for: url("a")) == old)
        #expect(try store.imageBytes() == 3000)

        #expect(try store.deleteImages(savedAtOrBefore: old.timestamp) == 1)
        let leftover = try SQLiteConnection(path: fileURL.path, readOnly: true).firstRow("SELECT COUNT(*) FROM image_piece")?.int(0)
        #expect(leftover == 0)
    }

    @Test("Each cached image keeps its SHA-256, computed once when it is saved; one cached before digests were kept has none")
    func keepsEachImageDigest() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        let big = image(600_000)
        try store.insertImage(big, for: url("big"))
        let opened = try #require(try store.openImage(for: url("big")))
        #expect(opened.sha256 == Data(SHA256.hash(data: big.image.bytes)))

        // As a cache file from before v3 holds it: no digest.
        try SQLiteConnection(path: fileURL.path, readOnly: false).run("UPDATE image SET sha256 = NULL")
        #expect(try #require(try store.openImage(for: url("big"))).sha256 == nil)
        #expect(try store.retrieveImage(for: url("big")) == big)
    }
}
