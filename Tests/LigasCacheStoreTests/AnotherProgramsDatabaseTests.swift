import Foundation
@testable import LigasCacheStore
import LigasDomain
import LigasTestSupport
import Testing

/// `LIGASD_CACHE` naming a SQLite database that some other program keeps: ligasd must not add its
/// tables to it, nor put it in WAL mode, nor fail with a generic error.
@Suite("Another program's SQLite database as the cache file")
struct AnotherProgramsDatabaseTests {
    let directory = TemporaryDirectory()
    var fileURL: URL { directory.url.appendingPathComponent("notes.sqlite") }

    /// Other programs' databases, each as that program made it (rollback journal, its own rows).
    enum Layout: String, CaseIterable, CustomTestStringConvertible {
        case unrelatedTables = "tables of its own only"
        case conflictingFeedTable = "a feed table of its own"
        case otherGRDBApp = "another GRDB app's migrations"

        var testDescription: String { rawValue }

        var statements: [String] {
            switch self {
            case .unrelatedTables:
                ["CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)", "INSERT INTO notes (text) VALUES ('keep me')"]
            case .conflictingFeedTable:
                ["CREATE TABLE feed (id INTEGER PRIMARY KEY, title TEXT, url TEXT)", "INSERT INTO feed (title) VALUES ('keep me')"]
            case .otherGRDBApp:
                [
                    "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
                    "INSERT INTO grdb_migrations VALUES ('createNotes')",
                    "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)", "INSERT INTO notes (text) VALUES ('keep me')",
                ]
            }
        }
    }

    func make(_ layout: Layout) throws -> Data {
        do {
            let other = try SQLiteConnection(path: fileURL.path, readOnly: false)
            for statement in layout.statements { try other.execute(statement) }
        }
        return try Data(contentsOf: fileURL)
    }

    @Test("Refused with a named error and left byte for byte as it was", arguments: Layout.allCases)
    func refusedAndUntouched(_ layout: Layout) throws {
        let before = try make(layout)

        #expect(throws: CacheStoreError.notALigasdCache(path: fileURL.path)) { try SQLiteCacheStore(fileURL: fileURL) }
        #expect(throws: CacheStoreError.notALigasdCache(path: fileURL.path)) {
            try SQLiteCacheStore.openRecreatingIfCorrupt(fileURL: fileURL)
        }

        #expect(try Data(contentsOf: fileURL) == before)
        #expect(try SQLiteConnection(path: fileURL.path, readOnly: true).firstRow("PRAGMA journal_mode")?.text(0) == "delete")
    }

    @Test("A file whose first migration never committed (the migrations table alone, empty) is still ligasd's, and becomes a cache")
    func interruptedFirstMigration() throws {
        do {
            try SQLiteConnection(path: fileURL.path, readOnly: false)
                .execute("CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }

        let store = try SQLiteCacheStore(fileURL: fileURL)
        try store.replace("teams/serie-a", with: CachedFeed(payload: Data("[1]".utf8), timestamp: .now))

        #expect(try store.retrieve("teams/serie-a")?.payload == Data("[1]".utf8))
    }
}
