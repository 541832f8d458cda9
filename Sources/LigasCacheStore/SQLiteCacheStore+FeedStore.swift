import Foundation
import GRDB
import LigasDomain

extension SQLiteCacheStore: FeedStore {
    public func retrieve(_ key: String) throws -> CachedFeed? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT payload, saved_at FROM feed WHERE key = ?", arguments: [key])
                .map(Self.feed(from:))
        }
    }

    public func replace(_ key: String, with feed: CachedFeed) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM feed WHERE key = ?", arguments: [key])
            try db.execute(
                sql: "INSERT INTO feed (key, payload, saved_at) VALUES (?, ?, ?)",
                arguments: [key, feed.payload, feed.timestamp.timeIntervalSinceReferenceDate])
        }
    }

    public func delete(_ key: String) throws {
        try write { db in try db.execute(sql: "DELETE FROM feed WHERE key = ?", arguments: [key]) }
    }

    public func allFeeds() throws -> [(key: String, feed: CachedFeed)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT key, payload, saved_at FROM feed ORDER BY key").map { row in
                (key: row["key"], feed: Self.feed(from: row))
            }
        }
    }

    private static func feed(from row: Row) -> CachedFeed {
        CachedFeed(payload: row["payload"], timestamp: Date(timeIntervalSinceReferenceDate: row["saved_at"]))
    }
}
