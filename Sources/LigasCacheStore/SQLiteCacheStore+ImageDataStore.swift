import Foundation
import GRDB
import LigasDomain

extension SQLiteCacheStore: ImageDataStore {
    /// Reading an image marks it as used, so eviction removes the least recently used first.
    public func retrieveImage(for url: URL) throws -> CachedImage? {
        try write { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT content_type, bytes, saved_at FROM image WHERE url = ?", arguments: [url.absoluteString])
            else { return nil }
            try db.execute(
                sql: "UPDATE image SET last_used = (SELECT MAX(last_used) + 1 FROM image) WHERE url = ?",
                arguments: [url.absoluteString])
            return CachedImage(
                image: ImageData(bytes: row["bytes"], contentType: row["content_type"]),
                timestamp: Date(timeIntervalSinceReferenceDate: row["saved_at"]))
        }
    }

    public func insertImage(_ cached: CachedImage, for url: URL) throws {
        let size = cached.image.bytes.count
        guard size <= imageCapacityBytes else {
            throw CacheStoreError.imageLargerThanCapacity(bytes: size, capacity: imageCapacityBytes)
        }
        try write { db in
            try db.execute(sql: "DELETE FROM image WHERE url = ?", arguments: [url.absoluteString])
            try evictLeastRecentlyUsed(db, toFit: size)
            try db.execute(
                sql: """
                    INSERT INTO image (url, content_type, bytes, size, saved_at, last_used)
                    VALUES (?, ?, ?, ?, ?, (SELECT COALESCE(MAX(last_used), 0) + 1 FROM image))
                    """,
                arguments: [url.absoluteString, cached.image.contentType, cached.image.bytes, size,
                            cached.timestamp.timeIntervalSinceReferenceDate])
        }
    }

    public func deleteImages(savedAtOrBefore cutoff: Date) throws -> Int {
        try write { db in
            try db.execute(
                sql: "DELETE FROM image WHERE saved_at <= ?", arguments: [cutoff.timeIntervalSinceReferenceDate])
            return db.changesCount
        }
    }

    /// Total bytes of all cached images.
    public func imageBytes() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM image") ?? 0 }
    }

    private func evictLeastRecentlyUsed(_ db: Database, toFit incoming: Int) throws {
        var total = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM image") ?? 0
        while total + incoming > imageCapacityBytes,
              let oldest = try Row.fetchOne(db, sql: "SELECT url, size FROM image ORDER BY last_used LIMIT 1") {
            try db.execute(sql: "DELETE FROM image WHERE url = ?", arguments: [oldest["url"] as String])
            total -= oldest["size"] as Int
        }
    }
}
