/// Schema changes applied in order, each once per file, each in its own transaction. Which ones
/// a file has is kept in the table `grdb_migrations`, by identifier: the name and layout GRDB's
/// migrator used, so cache files GRDB created open as they are (see README).
struct SQLiteMigrations {
    static let table = "grdb_migrations"
    private var steps: [(identifier: String, apply: (SQLiteConnection) throws -> Void)] = []

    mutating func register(_ identifier: String, _ apply: @escaping (SQLiteConnection) throws -> Void) {
        steps.append((identifier, apply))
    }

    /// Applies the steps the file does not have yet. Foreign keys are off while a step runs (a
    /// table may be rebuilt), and checked before it commits.
    func apply(to database: SQLiteDatabase) throws {
        try database.withWriter { try apply(on: $0) }
    }

    /// The same, on a connection the caller holds outside any transaction (the writer).
    func apply(on db: SQLiteConnection) throws {
        try db.execute("CREATE TABLE IF NOT EXISTS \(Self.table) (identifier TEXT NOT NULL PRIMARY KEY)")
        let applied = try Set(db.rows("SELECT identifier FROM \(Self.table)").map { try $0.text(0) })
        let pending = steps.filter { !applied.contains($0.identifier) }
        guard !pending.isEmpty else { return }
        try db.execute("PRAGMA foreign_keys = OFF")
        defer { try? db.execute("PRAGMA foreign_keys = ON") }
        for step in pending {
            try SQLiteDatabase.transaction(on: db, begin: "BEGIN IMMEDIATE") { db in
                try step.apply(db)
                try db.run("INSERT INTO \(Self.table) (identifier) VALUES (?)", [step.identifier])
                if let violation = try db.firstRow("PRAGMA foreign_key_check") {
                    throw SQLiteError(
                        code: 787 /* SQLITE_CONSTRAINT_FOREIGNKEY */,
                        message: "migration \(step.identifier) leaves a row of \(try violation.text(0)) without its parent")
                }
            }
        }
    }

    /// Whether these migrations made the database, or may: it has no table but perhaps the
    /// migrations table (a new file, or one whose first step never committed), or that table
    /// records the first step. Steps it records and these lack (a newer version's) do not matter.
    func own(_ db: SQLiteConnection) throws -> Bool {
        let tables = try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            .map { try $0.text(0) }
        guard tables.contains(where: { $0 != Self.table }) else { return true }
        guard tables.contains(Self.table), let first = steps.first else { return false }
        return try db.firstRow("SELECT 1 FROM \(Self.table) WHERE identifier = ?", [first.identifier]) != nil
    }
}
