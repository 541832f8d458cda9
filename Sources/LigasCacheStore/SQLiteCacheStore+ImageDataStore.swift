import Crypto
import FoundationEssentials
import LigasDomain

extension SQLiteCacheStore: ImageDataStore {
    /// Opening an image marks it as used, so eviction removes the least recently used first.
    /// Only the small `image` row is written, and only when the image is not the most recently
    /// used already (the order would not change: an image streamed again and again costs no
    /// write); the bytes are read piece by piece, later.
    public func openImage(for url: URL) throws -> StoredImage? {
        let key = url.absoluteString
        let found = try read { db -> (contentType: String, size: Int, savedAt: Double, sha256: Data?, newest: Bool)? in
            guard let row = try db.firstRow("""
                SELECT content_type, size, saved_at, sha256, last_used = (SELECT MAX(last_used) FROM image)
                FROM image WHERE url = ?
                """, [key])
            else { return nil }
            return (try row.text(0), try row.int(1), try row.double(2), row.optionalBlob(3), try row.int(4) != 0)
        }
        guard let (contentType, size, savedAt, sha256, newest) = found else { return nil }
        if !newest {
            try write { db in
                try Self.markNewest(key, in: db)
            }
        }
        return StoredImage(
            contentType: contentType, size: size, timestamp: Date(timeIntervalSinceReferenceDate: savedAt),
            pieceCount: max(1, (size + CacheSchema.pieceSize - 1) / CacheSchema.pieceSize), sha256: sha256,
            pieceMayWaitForWrites: database.readsWaitForWrites
        ) { [self] index in
            // The same image (same save time and size) or nothing: never a piece of its replacement.
            let piece = try read { db -> Data? in
                // A stream finds every piece with this one statement, prepared once (the connection
                // keeps it), and reads its bytes straight into the chunk, in the same transaction.
                guard let rowID = try db.firstRow("""
                    SELECT image_piece.rowid FROM image JOIN image_piece USING (url)
                    WHERE url = ? AND image.saved_at = ? AND image.size = ? AND image_piece.seq = ?
                    """, [key, savedAt, size, index])?.int(0)
                else { return nil }
                return try db.readBlob(table: "image_piece", column: "bytes", rowID: Int64(rowID))
            }
            guard let piece else { throw CacheError.changedWhileReading(key: key) }
            return piece
        }
    }

    /// The whole image at once (`openImage` streams it instead).
    public func retrieveImage(for url: URL) throws -> CachedImage? {
        guard let stored = try openImage(for: url) else { return nil }
        return CachedImage(image: try stored.whole(), timestamp: stored.timestamp)
    }

    /// One transaction; a URL no longer cached is skipped. A failure is left for the next read
    /// or save to meet: the order of eviction is a hint, not data.
    public func markUsed(_ urls: [URL]) {
        guard !urls.isEmpty else { return }
        try? write { db in
            for url in urls {
                try Self.markNewest(url.absoluteString, in: db)
            }
        }
    }

    public func insertImage(_ cached: CachedImage, for url: URL) throws {
        let size = cached.image.bytes.count
        guard size <= imageCapacityBytes else {
            throw CacheStoreError.imageLargerThanCapacity(bytes: size, capacity: imageCapacityBytes)
        }
        let key = url.absoluteString
        try write { db in
            try db.run("DELETE FROM image WHERE url = ?", [key])
            try evictLeastRecentlyUsed(db, toFit: size)
            try db.run(
                """
                INSERT INTO image (url, content_type, size, saved_at, sha256, last_used)
                VALUES (?, ?, ?, ?, ?, (SELECT COALESCE(MAX(last_used), 0) + 1 FROM image))
                """,
                [
                    key, cached.image.contentType, size, cached.timestamp.timeIntervalSinceReferenceDate,
                    Data(SHA256.hash(data: cached.image.bytes)),
                ])
            try CacheSchema.insertPieces(of: cached.image.bytes, url: key, into: db)
        }
    }

    public func deleteImages(savedAtOrBefore cutoff: Date) throws -> Int {
        try write { db in
            try db.run("DELETE FROM image WHERE saved_at <= ?", [cutoff.timeIntervalSinceReferenceDate])
            return db.changes
        }
    }

    /// Total bytes of all cached images.
    public func imageBytes() throws -> Int {
        try read { db in try Self.totalImageBytes(db) }
    }

    private func evictLeastRecentlyUsed(_ db: SQLiteConnection, toFit incoming: Int) throws {
        var total = try Self.totalImageBytes(db)
        while total + incoming > imageCapacityBytes,
              let oldest = try db.firstRow("SELECT url, size FROM image ORDER BY last_used LIMIT 1") {
            try db.run("DELETE FROM image WHERE url = ?", [try oldest.text(0)])
            total -= try oldest.int(1)
        }
    }

    /// Makes the image the most recently used (eviction takes the least recently used first).
    private static func markNewest(_ key: String, in db: SQLiteConnection) throws {
        try db.run("UPDATE image SET last_used = (SELECT MAX(last_used) + 1 FROM image) WHERE url = ?", [key])
    }

    private static func totalImageBytes(_ db: SQLiteConnection) throws -> Int {
        try db.firstRow("SELECT COALESCE(SUM(size), 0) FROM image")?.optionalInt(0) ?? 0
    }
}
