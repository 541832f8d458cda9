import FoundationEssentials
import LigasDomain

extension SQLiteCacheStore: FeedStore {
    public func retrieve(_ key: String) throws -> CachedFeed? {
        try read { db in
            try db.firstRow("SELECT payload, saved_at FROM feed WHERE key = ?", [key]).map { try Self.feed(from: $0) }
        }
    }

    public func replace(_ key: String, with feed: CachedFeed) throws {
        try write { db in
            try db.run("DELETE FROM feed WHERE key = ?", [key])
            try db.run(
                "INSERT INTO feed (key, payload, saved_at) VALUES (?, ?, ?)",
                [key, feed.payload, feed.timestamp.timeIntervalSinceReferenceDate])
        }
    }

    public func delete(_ key: String) throws {
        try write { db in try db.run("DELETE FROM feed WHERE key = ?", [key]) }
    }

    public func allFeeds() throws -> [(key: String, feed: CachedFeed)] {
        try read { db in
            try db.rows("SELECT key, payload, saved_at FROM feed ORDER BY key").map { row in
                (key: try row.text(0), feed: try Self.feed(from: row, payload: 1))
            }
        }
    }

    /// `payload` and `saved_at` at `payload` and the column after it.
    private static func feed(from row: SQLiteRow, payload: Int = 0) throws -> CachedFeed {
        CachedFeed(payload: try row.blob(payload), timestamp: Date(timeIntervalSinceReferenceDate: try row.double(payload + 1)))
    }
}
