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

    /// Opens (creating if needed) the cache file at `fileURL`.
    /// Throws `CacheStoreError.corrupt` for a damaged file and `.unwritable` for a read-only location.
    public convenience init(fileURL: URL, imageCapacityBytes: Int = SQLiteCacheStore.defaultImageCapacityBytes) throws {
        let path = fileURL.path
        do {
            try FileManager.default.createDirectory(
                at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw CacheStoreError.unwritable(path: path, reason: "cannot create its directory: \(error.localizedDescription)")
        }
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
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
        fileURL: URL, imageCapacityBytes: Int = SQLiteCacheStore.defaultImageCapacityBytes
    ) throws -> (store: SQLiteCacheStore, recreated: Bool) {
        do {
            return (try SQLiteCacheStore(fileURL: fileURL, imageCapacityBytes: imageCapacityBytes), false)
        } catch CacheStoreError.corrupt {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: fileURL.path + suffix)
            }
            return (try SQLiteCacheStore(fileURL: fileURL, imageCapacityBytes: imageCapacityBytes), true)
        }
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
