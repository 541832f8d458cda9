import Foundation
import GRDB
import LigasDomain

/// The cache in one SQLite file, in WAL mode: feeds and image blobs, each with its timestamp.
///
/// Every write is one transaction, so a failed replace (disk full, crash) leaves the previous
/// data in place, and WAL keeps committed data through a `kill -9`.
public final class SQLiteCacheStore: Sendable {
    public static let defaultImageCapacityBytes = 256 * 1024 * 1024

    let database: any DatabaseWriter
    let path: String
    let imageCapacityBytes: Int

    /// Room for feeds on top of the image cap, when no file size cap is given.
    public static let feedAllowanceBytes = 64 * 1024 * 1024

    /// Opens (creating if needed) the cache file at `fileURL`.
    /// Throws `CacheStoreError.corrupt` for a damaged file and `.unwritable` for a read-only location.
    ///
    /// `maxFileBytes` caps the file itself (SQLite's `max_page_count`): past it, writes fail with
    /// `.diskFull` exactly as on a full disk, and roll back.
    public convenience init(
        fileURL: URL,
        imageCapacityBytes: Int = SQLiteCacheStore.defaultImageCapacityBytes,
        maxFileBytes: Int? = nil
    ) throws {
        let path = fileURL.path
        do {
            try FileManager.default.createDirectory(
                at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw CacheStoreError.unwritable(path: path, reason: "cannot create its directory: \(error.localizedDescription)")
        }
        var configuration = Configuration()
        let maxFileBytes = maxFileBytes ?? imageCapacityBytes + Self.feedAllowanceBytes
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
            try db.execute(sql: "PRAGMA max_page_count = \(max(16, maxFileBytes / pageSize))")
        }
        let database: any DatabaseWriter
        do {
            database = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw CacheStoreError.from(error, path: path)
        }
        try self.init(database: database, path: path, imageCapacityBytes: imageCapacityBytes)
    }

    /// A cache that lives only as long as the process: the fallback when no file can be used.
    public static func inMemory(imageCapacityBytes: Int = SQLiteCacheStore.defaultImageCapacityBytes) throws -> SQLiteCacheStore {
        try SQLiteCacheStore(database: try DatabaseQueue(), path: ":memory:", imageCapacityBytes: imageCapacityBytes)
    }

    /// Opens the cache, and if the file is corrupt, deletes it and starts a new one.
    /// Returns whether the file had to be recreated, so the caller can log it.
    public static func openRecreatingIfCorrupt(
        fileURL: URL, imageCapacityBytes: Int = SQLiteCacheStore.defaultImageCapacityBytes, maxFileBytes: Int? = nil
    ) throws -> (store: SQLiteCacheStore, recreated: Bool) {
        let open = { try SQLiteCacheStore(fileURL: fileURL, imageCapacityBytes: imageCapacityBytes, maxFileBytes: maxFileBytes) }
        do {
            return (try open(), false)
        } catch CacheStoreError.corrupt {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: fileURL.path + suffix)
            }
            return (try open(), true)
        }
    }

    /// SQLite's journal mode for this file ("wal" for a file store), for diagnostics.
    public func journalMode() throws -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    private init(database: any DatabaseWriter, path: String, imageCapacityBytes: Int) throws {
        self.database = database
        self.path = path
        self.imageCapacityBytes = imageCapacityBytes
        do {
            try CacheSchema.migrator.migrate(database)
        } catch {
            throw CacheStoreError.from(error, path: path)
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try database.read(body) } catch { throw CacheStoreError.from(error, path: path) }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try database.write(body) } catch { throw CacheStoreError.from(error, path: path) }
    }
}
