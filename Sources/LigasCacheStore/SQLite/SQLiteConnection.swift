import CSQLite
import FoundationEssentials
import Glibc

/// One connection to SQLite, over its C API. Not thread-safe: `SQLiteDatabase` hands each one to
/// a single thread at a time (SQLite is opened in multi-thread mode, `SQLITE_OPEN_NOMUTEX`), which
/// is why it may cross threads (`@unchecked Sendable`). Prepared statements are kept by SQL text,
/// so a query the cache runs again and again is compiled once per connection.
final class SQLiteConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    init(path: String, readOnly: Bool) throws {
        _ = Self.configureSQLite
        var opened: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let code = sqlite3_open_v2(path, &opened, access | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError(code: code, message: opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)")
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Process-wide, once, before the first connection opens (see the shim): SQLITE_OK, or
    /// SQLITE_MISUSE if something else in the process had initialised SQLite before (then pages
    /// are set aside as by default; nothing else changes).
    static let configureSQLite: Int32 = ligas_sqlite3_config_no_initial_page_cache()

    /// Frees the pages its page cache holds and no statement is using; they are read again
    /// (from the file, or the kernel's cache of it) when next needed.
    func releaseMemory() {
        sqlite3_db_release_memory(handle)
    }

    /// Bytes its page cache holds now (`SQLITE_DBSTATUS_CACHE_USED`).
    var cachedPageBytes: Int {
        var current: Int32 = 0, highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE (not counting foreign-key cascades).
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open (SQLite rolls one back by itself after some errors).
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    func busyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Empties the database file, however damaged its pages are (SQLite's own recipe for a
    /// corrupt file: `SQLITE_DBCONFIG_RESET_DATABASE`, then VACUUM); it keeps its page size and
    /// WAL mode, and other connections to it see an empty database at their next transaction.
    func resetToEmpty() throws {
        // Read the schema first, ignoring errors: without it the file would leave WAL mode.
        _ = sqlite3_table_column_metadata(handle, "main", "sqlite_master", "name", nil, nil, nil, nil, nil)
        ligas_sqlite3_db_config_reset_database(handle, 1)
        defer { ligas_sqlite3_db_config_reset_database(handle, 0) }
        try execute("VACUUM")
    }

    /// Runs one statement or several separated by `;`, without arguments or results.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, message: message.map { String(cString: $0) } ?? lastMessage, sql: sql)
        }
    }

    /// Runs one statement, discarding any rows.
    func run(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws {
        try forEachRow(sql, arguments) { _ in }
    }

    func rows(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws -> [SQLiteRow] {
        var rows: [SQLiteRow] = []
        try forEachRow(sql, arguments) { rows.append($0) }
        return rows
    }

    func firstRow(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws -> SQLiteRow? {
        var first: SQLiteRow?
        try forEachRow(sql, arguments) { row in
            if first == nil { first = row }
        }
        return first
    }

    /// Steps through the rows one at a time (a migration copies every image this way, without
    /// holding them all in memory).
    func forEachRow(_ sql: String, _ arguments: [any SQLiteBindable], _ body: (SQLiteRow) throws -> Void) throws {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, argument) in arguments.enumerated() {
            let code = argument.bind(to: statement, at: Int32(offset + 1))
            guard code == SQLITE_OK else { throw SQLiteError(code: code, message: lastMessage, sql: sql) }
        }
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: try body(SQLiteRow(statement))
            case SQLITE_DONE: return
            case let code: throw SQLiteError(code: code, message: lastMessage, sql: sql)
            }
        }
    }

    /// One BLOB value read straight into its own `Data` (SQLite's incremental BLOB I/O), for a
    /// value too large to copy twice: a row's column would first be assembled by SQLite from its
    /// overflow pages, then copied again into the row.
    func readBlob(table: String, column: String, rowID: Int64) throws -> Data {
        var blob: OpaquePointer?
        let code = sqlite3_blob_open(handle, "main", table, column, rowID, 0, &blob)
        defer { sqlite3_blob_close(blob) }
        guard code == SQLITE_OK, let blob else {
            throw SQLiteError(code: code, message: lastMessage, sql: "blob \(table).\(column) of row \(rowID)")
        }
        // Uninitialized: SQLite overwrites every byte, and zeroing a 256 KiB piece first (as
        // `Data(count:)` does) was ~7% of ligasd's CPU while streaming (perf).
        let count = Int(sqlite3_blob_bytes(blob))
        guard let storage = malloc(max(count, 1)) else {
            throw SQLiteError(code: SQLITE_NOMEM, message: "out of memory", sql: "blob \(table).\(column) of row \(rowID)")
        }
        let read = sqlite3_blob_read(blob, storage, Int32(count), 0)
        guard read == SQLITE_OK else {
            free(storage)
            throw SQLiteError(code: read, message: lastMessage, sql: "blob \(table).\(column) of row \(rowID)")
        }
        return Data(bytesNoCopy: storage, count: count, deallocator: .free)
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw SQLiteError(code: code, message: lastMessage, sql: sql) }
        statements[sql] = statement
        return statement
    }

    private var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

/// A failed SQLite call: its (extended) result code and SQLite's message.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var sql: String?

    /// The primary result code (`SQLITE_FULL`, …), without the extended bits.
    var primaryCode: Int32 { code & 0xFF }

    var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " - while executing `\($0)`" } ?? "")
    }
}
