import Crypto
import Foundation
import GRDB
import LigasDomain

extension SQLiteCacheStore: ImageDataStore {
    /// Opening an image marks it as used, so eviction removes the least recently used first.
    /// Only the small `image` row is written; the bytes are read piece by piece, later.
    public func openImage(for url: URL) throws -> StoredImage? {
        let key = url.absoluteString
        let found = try write { db -> Row? in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT content_type, size, saved_at, sha256 FROM image WHERE url = ?", arguments: [key])
            else { return nil }
            try db.execute(sql: "UPDATE image SET last_used = (SELECT MAX(last_used) + 1 FROM image) WHERE url = ?", arguments: [key])
            return row
        }
        guard let row = found else { return nil }
        let size: Int = row["size"]
        let savedAt: Double = row["saved_at"]
        return StoredImage(
            contentType: row["content_type"], size: size, timestamp: Date(timeIntervalSinceReferenceDate: savedAt),
            pieceCount: max(1, (size + CacheSchema.pieceSize - 1) / CacheSchema.pieceSize), sha256: row["sha256"]
        ) { [self] index in
            // The same image (same save time and size) or nothing: never a piece of its replacement.
            let piece = try read { db in
                // Cached: a stream reads every piece with this one statement.
                try Data.fetchOne(db.cachedStatement(sql: """
                    SELECT image_piece.bytes FROM image JOIN image_piece USING (url)
                    WHERE url = ? AND image.saved_at = ? AND image.size = ? AND image_piece.seq = ?
                    """), arguments: [key, savedAt, size, index])
            }
            guard let piece else { throw CacheError.changedWhileReading(key: key) }
            return piece
        }
    }

    /// The whole image at once (`openImage` streams it instead).
    public func retrieveImage(for url: URL) throws -> CachedImage? {
        guard let stored = try openImage(for: url) else { return nil }
        var bytes = Data(capacity: stored.size)
        for index in 0..<stored.pieceCount { bytes.append(try stored.piece(index)) }
        return CachedImage(image: ImageData(bytes: bytes, contentType: stored.contentType), timestamp: stored.timestamp)
    }

    public func insertImage(_ cached: CachedImage, for url: URL) throws {
        let size = cached.image.bytes.count
        guard size <= imageCapacityBytes else {
            throw CacheStoreError.imageLargerThanCapacity(bytes: size, capacity: imageCapacityBytes)
        }
        let key = url.absoluteString
        try write { db in
            try db.execute(sql: "DELETE FROM image WHERE url = ?", arguments: [key])
            try evictLeastRecentlyUsed(db, toFit: size)
            try db.execute(
                sql: """
                    INSERT INTO image (url, content_type, size, saved_at, sha256, last_used)
                    VALUES (?, ?, ?, ?, ?, (SELECT COALESCE(MAX(last_used), 0) + 1 FROM image))
                    """,
                arguments: [
                    key, cached.image.contentType, size, cached.timestamp.timeIntervalSinceReferenceDate,
                    Data(SHA256.hash(data: cached.image.bytes)),
                ])
            try CacheSchema.insertPieces(of: cached.image.bytes, url: key, into: db)
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
