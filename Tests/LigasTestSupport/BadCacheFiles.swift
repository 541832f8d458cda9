import CSQLite
import Foundation
import LigasCacheStore

/// Cache files ligasd must cope with but never makes itself, made with SQLite's C API.
public enum BadCacheFiles {
    /// Damages a file the way a bad disk or a stray write does: its header intact (it opens), the
    /// root page of `table` (the whole table, for the few rows a test caches) overwritten with
    /// garbage, so that `PRAGMA quick_check` calls it malformed and SQLite fails every statement
    /// that reads that page with SQLITE_CORRUPT.
    /// The file must not be open: its write-ahead log is folded into it first, or the log's
    /// copy of the page would hide the damage.
    public static func overwriteRootPage(of table: String, in file: URL) throws {
        let (rootPage, pageSize) = try withConnection(file, readOnly: false) { db in
            _ = try rows(db, "PRAGMA wal_checkpoint(TRUNCATE)")
            let root = try rows(db, "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = '\(table)'").first
            guard let root else { throw Failure("no table \(table) in \(file.path)") }
            return (Int(root)!, Int(try rows(db, "PRAGMA page_size")[0])!)
        }
        var generator = SeededGenerator(seed: UInt64(rootPage))
        let garbage = Data((0..<pageSize).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64((rootPage - 1) * pageSize))
        try handle.write(contentsOf: garbage)
    }

    /// Another program's database, as it made it: a table of its own, with a row, in a file
    /// in rollback-journal mode (SQLite's default).
    public static func createOtherProgramsDatabase(at file: URL) throws {
        try withConnection(file, readOnly: false, create: true) { db in
            _ = try rows(db, "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
            _ = try rows(db, "INSERT INTO notes (text) VALUES ('keep me')")
        }
    }

    /// `PRAGMA quick_check`'s first line: "ok" for a sound file.
    public static func quickCheck(_ file: URL) throws -> String {
        try withConnection(file, readOnly: true) { db in
            do { return try rows(db, "PRAGMA quick_check").first ?? "" } catch let failure as Failure { return failure.message }
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    private static func withConnection<T>(
        _ file: URL, readOnly: Bool, create: Bool = false, _ body: (OpaquePointer) throws -> T
    ) throws -> T {
        // SQLite is set up once per process, by the cache store's first connection, before anything
        // initialises it (a raw open here first would leave the store's set-up refused, as the
        // store's tests check): a throwaway store opens that first connection.
        _ = try? SQLiteCacheStore.inMemory()
        var db: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let code = sqlite3_open_v2(file.path, &db, access, nil)
        defer { sqlite3_close(db) }
        guard code == SQLITE_OK, let db else { throw Failure("cannot open \(file.path): \(code)") }
        return try body(db)
    }

    /// The first column of every row, as text.
    private static func rows(_ db: OpaquePointer, _ sql: String) throws -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Failure(String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        var rows: [String] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
            case SQLITE_DONE: return rows
            default: throw Failure(String(cString: sqlite3_errmsg(db)))
            }
        }
    }
}
