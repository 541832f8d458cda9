import CSQLite
import FoundationEssentials
import Glibc
import LigasDomain
import Synchronization

/// The cache in one SQLite file, in WAL mode: feeds and image blobs, each with its timestamp.
///
/// Every write is one transaction, so a failed replace (disk full, crash) leaves the previous
/// data in place, and WAL keeps committed data through a `kill -9`. A file found corrupt is
/// recreated: at opening by `openRecreatingIfCorrupt`, in use by the store itself (see
/// `CorruptFileRecovery`).
public final class SQLiteCacheStore: Sendable {
    public static let defaultImageCapacityBytes = 256 * 1024 * 1024

    let database: SQLiteDatabase
    let path: String
    let imageCapacityBytes: Int
    /// Told of each corrupt file met in use, once emptied (or not): the daemon logs it.
    let onCorruptFile: @Sendable (CorruptFileRecovery) -> Void
    /// How many times the file was found corrupt in use and emptied.
    let recreations = Atomic<Int>(0)
    /// A corrupt file could not be emptied: not tried again until the next start.
    let recreationFailed = Atomic<Bool>(false)

    /// The page size of a new cache file. An image piece (256 KiB) is a chain of overflow pages,
    /// and SQLite reads a piece that is not in its page cache one page per `pread`: with 4 KiB
    /// pages (SQLite's default) that was 65 system calls per piece, a quarter of ligasd's CPU while
    /// it streamed a 20 MiB logo (`perf`); with 64 KiB pages, 5 (four overflow pages and the row's).
    static let pageSize = 64 << 10
    /// The write-ahead log is copied into the file once it holds this much, and cut back to it
    /// after an image bigger than that went through: SQLite's default of 1,000 pages, in bytes as
    /// with its default 4 KiB pages, so that bigger pages do not make the `-wal` file bigger.
    static let checkpointBytes = 4 << 20
    /// SQLite's page cache, per connection: 31 pages of 64 KiB (SQLite counts each page's header
    /// too; its default of 2,000 KiB comes to the same, and this says so rather than relying on
    /// it). An image piece not read straight from the file (Debian's SQLite 3.40 has no direct
    /// overflow reads, and a piece still in the `-wal` file never has) goes through this cache,
    /// five pages a piece; with 512 KiB (7 pages) each piece pushed out the three B-tree pages that
    /// find the next one, and every piece read them again: eight 64 KiB `pread`s a piece instead of
    /// five (`perf trace`). Held only while clients are connected: `QuietMemoryRelease` empties
    /// the idle connections' caches when the last one goes (up to ~1.5 MiB more per connection in
    /// use until then). `ligas-bench streams 3 1` / `3 20`, alternating, 512 KiB → 2 MiB:
    /// LigasClient 812–835 → 884–921 MiB/s (1 MiB) and 1,247–1,318 → 1,331–1,385 MiB/s (20 MiB).
    static let pageCacheBytes = 2 << 20

    /// Room for feeds on top of the image cap, when no file size cap is given.
    public static let feedAllowanceBytes = 64 * 1024 * 1024

    /// Opens (creating if needed) the cache file at `fileURL`.
    /// Throws `CacheStoreError.corrupt` for a damaged file, `.unwritable` for a read-only location
    /// and `.notALigasdCache` for another program's database, which it leaves as it was.
    ///
    /// `maxFileBytes` caps the file itself (SQLite's `max_page_count`, at least 16 pages: 1 MiB with
    /// the 64 KiB pages of a new file): past it, writes fail with `.diskFull` exactly as on a full
    /// disk, and roll back.
    public convenience init(
        fileURL: URL,
        imageCapacityBytes: Int = SQLiteCacheStore.defaultImageCapacityBytes,
        maxFileBytes: Int? = nil,
        onCorruptFile: @escaping @Sendable (CorruptFileRecovery) -> Void = { _ in }
    ) throws {
        let path = fileURL.path
        try Self.createDirectory(fileURL.deletingLastPathComponent().path, path: path)
        let maxFileBytes = maxFileBytes ?? imageCapacityBytes + Self.feedAllowanceBytes
        let database: SQLiteDatabase
        do {
            let accept = { (db: SQLiteConnection) in
                guard try CacheSchema.migrations.own(db) else { throw CacheStoreError.notALigasdCache(path: path) }
            }
            database = try SQLiteDatabase.file(path: path, accept: accept) { db in
                try Self.configure(db)
                // Only a file not yet written takes it (the first connection, on a new file); one
                // made with another size keeps its own. Why 64 KiB: see `pageSize`.
                try db.execute("PRAGMA page_size = \(Self.pageSize)")
                try db.execute("PRAGMA synchronous = NORMAL")
                let pageSize = try db.firstRow("PRAGMA page_size")?.optionalInt(0) ?? 4096
                try db.execute("PRAGMA max_page_count = \(max(16, maxFileBytes / pageSize))")
                try db.execute("PRAGMA wal_autocheckpoint = \(max(1, Self.checkpointBytes / pageSize))")
                try db.execute("PRAGMA journal_size_limit = \(Self.checkpointBytes)")
                try db.execute("PRAGMA cache_size = -\(Self.pageCacheBytes >> 10)")
            }
        } catch {
            throw CacheStoreError.from(error, path: path)
        }
        try self.init(database: database, path: path, imageCapacityBytes: imageCapacityBytes, onCorruptFile: onCorruptFile)
    }

    /// A cache that lives only as long as the process: the fallback when no file can be used.
    public static func inMemory(imageCapacityBytes: Int = SQLiteCacheStore.defaultImageCapacityBytes) throws -> SQLiteCacheStore {
        do {
            return try SQLiteCacheStore(
                database: try SQLiteDatabase.inMemory(configure: configure), path: ":memory:", imageCapacityBytes: imageCapacityBytes,
                onCorruptFile: { _ in })
        } catch {
            throw CacheStoreError.from(error, path: ":memory:")
        }
    }

    /// Opens the cache, and if the file is corrupt, deletes it and starts a new one.
    /// Returns whether the file had to be recreated, so the caller can log it.
    public static func openRecreatingIfCorrupt(
        fileURL: URL, imageCapacityBytes: Int = SQLiteCacheStore.defaultImageCapacityBytes, maxFileBytes: Int? = nil,
        onCorruptFile: @escaping @Sendable (CorruptFileRecovery) -> Void = { _ in }
    ) throws -> (store: SQLiteCacheStore, recreated: Bool) {
        let open = {
            try SQLiteCacheStore(
                fileURL: fileURL, imageCapacityBytes: imageCapacityBytes, maxFileBytes: maxFileBytes, onCorruptFile: onCorruptFile)
        }
        do {
            return (try open(), false)
        } catch CacheStoreError.corrupt {
            for suffix in ["", "-wal", "-shm"] { unlink(fileURL.path + suffix) }
            return (try open(), true)
        }
    }

    /// Frees the memory SQLite holds for pages it has read; they are read again when needed.
    public func releaseMemory() {
        database.releaseMemory()
    }

    /// SQLite's journal mode for this file ("wal" for a file store), for diagnostics.
    public func journalMode() throws -> String {
        try read { db in try db.firstRow("PRAGMA journal_mode")?.optionalText(0) ?? "" }
    }

    private init(
        database: SQLiteDatabase, path: String, imageCapacityBytes: Int,
        onCorruptFile: @escaping @Sendable (CorruptFileRecovery) -> Void
    ) throws {
        self.database = database
        self.path = path
        self.imageCapacityBytes = imageCapacityBytes
        self.onCorruptFile = onCorruptFile
        do {
            try CacheSchema.migrations.apply(to: database)
        } catch {
            throw CacheStoreError.from(error, path: path)
        }
    }

    /// Every connection, file or memory: cascades from `image` to `image_piece` need foreign keys.
    private static func configure(_ db: SQLiteConnection) throws {
        try db.execute("PRAGMA foreign_keys = ON")
    }

    /// `mkdir -p`, the new directories private to the daemon's user.
    private static func createDirectory(_ directory: String, path: String) throws {
        var partial = ""
        for component in directory.split(separator: "/") {
            partial += "/" + String(component)  // String + Substring (unspecialised) made the runtime scan every conformance
            guard mkdir(partial, 0o700) == 0 || errno == EEXIST else {
                let reason = String(cString: strerror(errno))
                throw CacheStoreError.unwritable(path: path, reason: "cannot create its directory \(partial): \(reason)")
            }
        }
    }

    func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let recreations = recreations.load(ordering: .acquiring)
        do { return try database.read(body) } catch { throw failure(error, recreationsBefore: recreations) }
    }

    func write<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let recreations = recreations.load(ordering: .acquiring)
        do { return try database.write(body) } catch { throw failure(error, recreationsBefore: recreations) }
    }
}
