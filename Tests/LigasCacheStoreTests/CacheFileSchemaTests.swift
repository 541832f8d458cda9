import Foundation
@testable import LigasCacheStore
import LigasDomain
import LigasTestSupport
import Synchronization
import Testing

/// The cache file's schema, against the files GRDB made before the store spoke to SQLite's C API
/// itself: both must open the other's files as they are.
@Suite("SQLite cache file schema")
struct CacheFileSchemaTests {
    let directory = TemporaryDirectory()
    var fileURL: URL { directory.url.appendingPathComponent("cache.sqlite") }

    /// `sqlite_master` of a cache file GRDB created and migrated to v4 (ligasd before it left GRDB).
    static let grdbSchema: [String] = [
        "table grdb_migrations CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
        "index sqlite_autoindex_grdb_migrations_1 -",
        #"table feed CREATE TABLE "feed" ("key" TEXT PRIMARY KEY NOT NULL, "payload" BLOB NOT NULL, "saved_at" DOUBLE NOT NULL)"#,
        "index sqlite_autoindex_feed_1 -",
        #"table image CREATE TABLE "image" ("url" TEXT PRIMARY KEY NOT NULL, "content_type" TEXT NOT NULL, "size" INTEGER NOT NULL, "saved_at" DOUBLE NOT NULL, "last_used" INTEGER NOT NULL, "sha256" BLOB)"#,
        "index sqlite_autoindex_image_1 -",
        #"index image_on_last_used CREATE INDEX "image_on_last_used" ON "image"("last_used")"#,
        #"table image_piece CREATE TABLE "image_piece" ("url" TEXT NOT NULL REFERENCES "image"("url") ON DELETE CASCADE, "seq" INTEGER NOT NULL, "bytes" BLOB NOT NULL, PRIMARY KEY ("url", "seq"))"#,
        "index sqlite_autoindex_image_piece_1 -",
        #"table request_count CREATE TABLE "request_count" ("provider" TEXT NOT NULL, "month" TEXT NOT NULL, "used" INTEGER NOT NULL, "reported_limit" INTEGER, "reported_remaining" INTEGER, "reported_until" DOUBLE, PRIMARY KEY ("provider", "month"))"#,
        "index sqlite_autoindex_request_count_1 -",
    ]

    static let migrations = ["v1", "v2: image bytes in pieces", "v3: request counts", "v4: image digests"]

    func schema() throws -> [String] {
        try SQLiteConnection(path: fileURL.path, readOnly: true).rows("SELECT type, name, sql FROM sqlite_master").map {
            "\(try $0.text(0)) \(try $0.text(1)) \($0.optionalText(2) ?? "-")"
        }
    }

    func appliedMigrations() throws -> [String] {
        try SQLiteConnection(path: fileURL.path, readOnly: true).rows("SELECT identifier FROM grdb_migrations ORDER BY rowid").map {
            try $0.text(0)
        }
    }

    @Test("A new file gets GRDB's schema to the letter, and the four migrations recorded as GRDB recorded them")
    func newFileSchema() throws {
        _ = try SQLiteCacheStore(fileURL: fileURL)

        #expect(try schema() == Self.grdbSchema)
        #expect(try appliedMigrations() == Self.migrations)
    }

    @Test("A file GRDB left at v4 opens as it is: its data read, no migration run again, the schema unchanged")
    func opensGRDBFile() throws {
        do {
            let grdb = try SQLiteConnection(path: fileURL.path, readOnly: false)
            try grdb.execute("PRAGMA journal_mode = WAL")
            for entry in Self.grdbSchema where entry.contains("CREATE ") {
                try grdb.execute(String(entry[entry.range(of: "CREATE ")!.lowerBound...]))
            }
            for migration in Self.migrations { try grdb.run("INSERT INTO grdb_migrations VALUES (?)", [migration]) }
            try grdb.run("INSERT INTO feed VALUES ('teams/serie-a', ?, 1000.5)", [Data("[1]".utf8)])
        }

        let store = try SQLiteCacheStore(fileURL: fileURL)

        #expect(try store.retrieve("teams/serie-a") == CachedFeed(payload: Data("[1]".utf8), timestamp: Date(timeIntervalSinceReferenceDate: 1000.5)))
        #expect(try appliedMigrations() == Self.migrations)
        #expect(try schema() == Self.grdbSchema)
    }

    @Test("An empty payload is kept as an empty blob, not as NULL")
    func emptyPayload() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        try store.replace("empty", with: CachedFeed(payload: Data(), timestamp: Date(timeIntervalSinceReferenceDate: 7)))

        #expect(try store.retrieve("empty") == CachedFeed(payload: Data(), timestamp: Date(timeIntervalSinceReferenceDate: 7)))
    }

    @Test("In memory, feeds, images and their cascade work as in a file")
    func inMemory() throws {
        let store = try SQLiteCacheStore.inMemory(imageCapacityBytes: 1 << 20)
        let image = CachedImage(image: ImageData(bytes: Fixtures.pngImage(size: 300_000), contentType: "image/png"), timestamp: Date(timeIntervalSinceReferenceDate: 9))
        try store.replace("k", with: CachedFeed(payload: Data("x".utf8), timestamp: Date(timeIntervalSinceReferenceDate: 8)))
        try store.insertImage(image, for: URL(string: "https://img.test/a.png")!)

        #expect(try store.retrieve("k")?.payload == Data("x".utf8))
        #expect(try store.retrieveImage(for: URL(string: "https://img.test/a.png")!) == image)
        #expect(try store.deleteImages(savedAtOrBefore: image.timestamp) == 1)
        #expect(try store.imageBytes() == 0)
        #expect(try store.journalMode() == "memory")
    }

    @Test("Many threads reading and writing at once, more than there are reader connections, each read sees a whole feed")
    func concurrentAccess() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        let payloads = (0..<8).map { Data(repeating: UInt8($0), count: 10_000 + $0) }
        try store.replace("shared", with: CachedFeed(payload: payloads[0], timestamp: Date(timeIntervalSinceReferenceDate: 0)))
        let torn = Atomic(0)

        DispatchQueue.concurrentPerform(iterations: 64) { index in
            do {
                if index % 4 == 0 {
                    try store.replace("shared", with: CachedFeed(payload: payloads[index % 8], timestamp: Date(timeIntervalSinceReferenceDate: 0)))
                } else if let read = try store.retrieve("shared"), !payloads.contains(read.payload) {
                    torn.add(1, ordering: .relaxed)
                }
            } catch {
                torn.add(1, ordering: .relaxed)
            }
        }

        #expect(torn.load(ordering: .relaxed) == 0)
        #expect(try payloads.contains(#require(try store.retrieve("shared")).payload))
    }
}
