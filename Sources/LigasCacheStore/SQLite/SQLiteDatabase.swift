import CSQLite
import Dispatch
import Synchronization

/// A SQLite database file in WAL mode, shared by threads: one writer connection, taken in turn,
/// and up to `maxReaders` read-only connections opened as reads need them, so reads go on while
/// a write is under way. Every `read` and `write` is one transaction.
///
/// In memory there is one connection for both (an in-memory database is private to it).
final class SQLiteDatabase: Sendable {
    static let maxReaders = 4
    /// How long a connection waits for another process's lock (a second program on the same
    /// cache file, or one recovering it) before the statement fails with SQLITE_BUSY.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    let path: String
    private let writer: Mutex<SQLiteConnection>
    private let idleReaders = Mutex<[SQLiteConnection]>([])
    /// One permit per reader that may be open at once; a read past them waits for one to finish.
    private let readerPermits = DispatchSemaphore(value: SQLiteDatabase.maxReaders)
    private let configureReader: @Sendable (SQLiteConnection) throws -> Void
    private let isInMemory: Bool

    /// Opens (creating if needed) the file at `path` in WAL mode. `configure` runs on every
    /// connection as it opens, writer and readers alike; `accept` on the writer, before the file
    /// is first written (WAL mode is written in its header), and may refuse it by throwing.
    static func file(
        path: String, accept: (SQLiteConnection) throws -> Void = { _ in },
        configure: @escaping @Sendable (SQLiteConnection) throws -> Void
    ) throws -> SQLiteDatabase {
        let writer = try SQLiteConnection(path: path, readOnly: false)
        // Without it, opening while another process migrates or writes the file fails at once,
        // and the daemon would cache in memory only for its whole life over a moment's lock.
        writer.busyTimeout(milliseconds: busyTimeoutMilliseconds)
        try configure(writer)
        // Any error of a file that is not a database shows here, before anything is written.
        try writer.run("SELECT * FROM sqlite_master LIMIT 1")
        try accept(writer)
        guard try writer.firstRow("PRAGMA journal_mode = WAL")?.text(0) == "wal" else {
            throw SQLiteError(code: SQLITE_ERROR, message: "could not put \(path) in WAL mode")
        }
        return SQLiteDatabase(path: path, writer: writer) { reader in
            // WAL readers see SQLITE_BUSY only in rare cases (another process recovering the
            // file, or closing it last): they wait those out.
            reader.busyTimeout(milliseconds: busyTimeoutMilliseconds)
            try configure(reader)
        }
    }

    static func inMemory(configure: (SQLiteConnection) throws -> Void) throws -> SQLiteDatabase {
        let connection = try SQLiteConnection(path: ":memory:", readOnly: false)
        try configure(connection)
        return SQLiteDatabase(path: ":memory:", writer: connection, configureReader: nil)
    }

    private init(path: String, writer: SQLiteConnection, configureReader: (@Sendable (SQLiteConnection) throws -> Void)?) {
        self.path = path
        self.writer = Mutex(writer)
        self.configureReader = configureReader ?? { _ in }
        isInMemory = configureReader == nil
    }

    /// Whether a read may wait for a write to finish: in memory, where one connection does both.
    /// (In WAL mode a file's readers wait for no writer.)
    var readsWaitForWrites: Bool { isInMemory }

    /// Runs `body` in a transaction that sees one state of the file, on a reader connection.
    func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if isInMemory { return try write(body) }
        readerPermits.wait()
        defer { readerPermits.signal() }
        let reader = try idleReaders.withLock { $0.popLast() } ?? openReader()
        defer { idleReaders.withLock { $0.append(reader) } }
        return try Self.transaction(on: reader, begin: "BEGIN DEFERRED", body)
    }

    /// Runs `body` in a write transaction, one at a time: it commits if `body` returns, and
    /// rolls back if it throws.
    func write<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.withLock { connection in
            try Self.transaction(on: connection, begin: "BEGIN IMMEDIATE", body)
        }
    }

    /// Frees the page-cache memory of the writer and of the readers not in use.
    func releaseMemory() {
        writer.withLock { $0.releaseMemory() }
        idleReaders.withLock { readers in readers.forEach { $0.releaseMemory() } }
    }

    /// Runs `body` on the writer outside any transaction (for PRAGMAs that a transaction
    /// ignores, such as `foreign_keys`).
    func withWriter<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.withLock { try body($0) }
    }

    private func openReader() throws -> SQLiteConnection {
        let reader = try SQLiteConnection(path: path, readOnly: true)
        try configureReader(reader)
        return reader
    }

    static func transaction<T>(on connection: SQLiteConnection, begin: String, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try connection.execute(begin)
        do {
            let result = try body(connection)
            try connection.execute("COMMIT")
            return result
        } catch {
            // SQLite may have rolled back already (a full disk does that).
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }
}
