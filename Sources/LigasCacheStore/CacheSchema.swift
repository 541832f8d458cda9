import FoundationEssentials

/// The cache file's tables: `feed`; `image` (what the LRU needs) and `image_piece` (the bytes,
/// in pieces of `pieceSize`, deleted with their `image` row by the foreign key's cascade);
/// `request_count` (requests made to each metered provider per month).
/// Timestamps are `timeIntervalSinceReferenceDate`, which round-trips
/// a `Date` exactly. The statements are the ones GRDB wrote when it created these files, so a file
/// made by either has the same schema, to the letter (a test compares them).
enum CacheSchema {
    static var migrations: SQLiteMigrations {
        var migrations = SQLiteMigrations()
        migrations.register("v1") { db in
            try db.execute("""
                CREATE TABLE "feed" ("key" TEXT PRIMARY KEY NOT NULL, "payload" BLOB NOT NULL, "saved_at" DOUBLE NOT NULL);
                CREATE TABLE "image" ("url" TEXT PRIMARY KEY NOT NULL, "content_type" TEXT NOT NULL, "bytes" BLOB NOT NULL, \
                "size" INTEGER NOT NULL, "saved_at" DOUBLE NOT NULL, "last_used" INTEGER NOT NULL);
                CREATE INDEX "image_on_last_used" ON "image"("last_used");
                """)
            // `last_used` is a counter, not a clock: LRU eviction only needs an order of use.
        }
        // Image bytes move out of the `image` row, into pieces of their own. SQLite rewrites a
        // whole row on UPDATE, so bumping `last_used` on every read rewrote the image's megabytes
        // into the WAL; columns after a blob could only be read by walking its overflow pages; and
        // a stream can now read one piece at a time instead of the whole image.
        migrations.register("v2: image bytes in pieces") { db in
            try db.execute("""
                CREATE TABLE "image_piece" ("url" TEXT NOT NULL REFERENCES "image"("url") ON DELETE CASCADE, \
                "seq" INTEGER NOT NULL, "bytes" BLOB NOT NULL, PRIMARY KEY ("url", "seq"))
                """)
            try db.forEachRow("SELECT url, bytes FROM image", []) { row in
                try insertPieces(of: row.blob(1), url: row.text(0), into: db)
            }
            try db.execute(#"ALTER TABLE "image" DROP COLUMN "bytes""#)
        }
        // Requests made to each metered provider, per calendar month: the quota outlives restarts
        // and cache validation (these rows are not feeds and never expire).
        migrations.register("v3: request counts") { db in
            try db.execute("""
                CREATE TABLE "request_count" ("provider" TEXT NOT NULL, "month" TEXT NOT NULL, "used" INTEGER NOT NULL, \
                "reported_limit" INTEGER, "reported_remaining" INTEGER, "reported_until" DOUBLE, PRIMARY KEY ("provider", "month"))
                """)
        }
        // Each image's SHA-256, computed once when it is cached: streaming it again and again from
        // the cache then costs no hashing. Images cached before have none, and are hashed as they
        // stream.
        migrations.register("v4: image digests") { db in
            try db.execute(#"ALTER TABLE "image" ADD COLUMN "sha256" BLOB"#)
        }
        return migrations
    }

    /// Bytes per stored image piece: what one stream read holds in memory.
    static let pieceSize = 256 << 10

    static func insertPieces(of bytes: Data, url: String, into db: SQLiteConnection) throws {
        var seq = 0
        var offset = bytes.startIndex
        repeat {
            let end = bytes.index(offset, offsetBy: pieceSize, limitedBy: bytes.endIndex) ?? bytes.endIndex
            try db.run("INSERT INTO image_piece (url, seq, bytes) VALUES (?, ?, ?)", [url, seq, bytes[offset..<end]])
            seq += 1
            offset = end
        } while offset < bytes.endIndex
    }
}
