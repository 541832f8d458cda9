import Foundation
import GRDB

/// The cache file's tables: `feed`; `image` (what the LRU needs) and `image_piece` (the bytes,
/// in pieces of `pieceSize`, deleted with their `image` row by the foreign key's cascade);
/// `request_count` (requests made to each metered provider per month).
/// Timestamps are `timeIntervalSinceReferenceDate`, which round-trips
/// a `Date` exactly.
enum CacheSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "feed") { t in
                t.primaryKey("key", .text)
                t.column("payload", .blob).notNull()
                t.column("saved_at", .double).notNull()
            }
            try db.create(table: "image") { t in
                t.primaryKey("url", .text)
                t.column("content_type", .text).notNull()
                t.column("bytes", .blob).notNull()
                t.column("size", .integer).notNull()
                t.column("saved_at", .double).notNull()
                // A counter, not a clock: LRU eviction only needs an order of use.
                t.column("last_used", .integer).notNull().indexed()
            }
        }
        // Image bytes move out of the `image` row, into pieces of their own. SQLite rewrites a
        // whole row on UPDATE, so bumping `last_used` on every read rewrote the image's megabytes
        // into the WAL; columns after a blob could only be read by walking its overflow pages; and
        // a stream can now read one piece at a time instead of the whole image.
        migrator.registerMigration("v2: image bytes in pieces") { db in
            try db.create(table: "image_piece") { t in
                t.column("url", .text).notNull().references("image", onDelete: .cascade)
                t.column("seq", .integer).notNull()
                t.column("bytes", .blob).notNull()
                t.primaryKey(["url", "seq"])
            }
            let rows = try Row.fetchCursor(db, sql: "SELECT url, bytes FROM image")
            while let row = try rows.next() {
                try insertPieces(of: row["bytes"], url: row["url"], into: db)
            }
            try db.alter(table: "image") { t in t.drop(column: "bytes") }
        }
        // Requests made to each metered provider, per calendar month: the quota outlives restarts
        // and cache validation (these rows are not feeds and never expire).
        migrator.registerMigration("v3: request counts") { db in
            try db.create(table: "request_count") { t in
                t.column("provider", .text).notNull()
                t.column("month", .text).notNull()
                t.column("used", .integer).notNull()
                t.column("reported_limit", .integer)
                t.column("reported_remaining", .integer)
                t.column("reported_until", .double)
                t.primaryKey(["provider", "month"])
            }
        }
        // Each image's SHA-256, computed once when it is cached: streaming it again and again from
        // the cache then costs no hashing. Images cached before have none, and are hashed as they
        // stream.
        migrator.registerMigration("v4: image digests") { db in
            try db.alter(table: "image") { t in t.add(column: "sha256", .blob) }
        }
        return migrator
    }

    /// Bytes per stored image piece: what one stream read holds in memory.
    static let pieceSize = 256 << 10

    static func insertPieces(of bytes: Data, url: String, into db: Database) throws {
        var seq = 0
        var offset = bytes.startIndex
        repeat {
            let end = bytes.index(offset, offsetBy: pieceSize, limitedBy: bytes.endIndex) ?? bytes.endIndex
            try db.execute(
                sql: "INSERT INTO image_piece (url, seq, bytes) VALUES (?, ?, ?)", arguments: [url, seq, bytes[offset..<end]])
            seq += 1
            offset = end
        } while offset < bytes.endIndex
    }
}
