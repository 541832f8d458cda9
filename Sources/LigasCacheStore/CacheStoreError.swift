import CSQLite

/// The cache store's failures, named so the daemon can say what happened and what to do.
public enum CacheStoreError: Error, Hashable, Sendable {
    /// The file is not a SQLite database, or is damaged. Met at opening, `openRecreatingIfCorrupt`
    /// replaces the file; met in use, the store empties it before throwing (`CorruptFileRecovery`).
    case corrupt(path: String)
    /// Another program's SQLite database: tables of its own, and no record of ligasd's migrations.
    /// It is not written to (nor put in WAL mode); the daemon caches in memory instead.
    case notALigasdCache(path: String)
    /// The location cannot be written: read-only file system, permissions, missing directory.
    case unwritable(path: String, reason: String)
    /// The disk (or quota) is full; the transaction was rolled back and the old data stays.
    case diskFull
    /// A single image bigger than the whole image cache.
    case imageLargerThanCapacity(bytes: Int, capacity: Int)
    case failed(String)

    static func from(_ error: any Error, path: String) -> CacheStoreError {
        if let error = error as? CacheStoreError { return error }
        guard let error = error as? SQLiteError else { return .failed(String(describing: error)) }
        switch error.primaryCode {
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt(path: path)
        case SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH: return .unwritable(path: path, reason: error.message)
        case SQLITE_FULL: return .diskFull
        default: return .failed(error.description)
        }
    }
}
