import GRDB

/// The cache file's tables. Timestamps are `timeIntervalSinceReferenceDate`, which round-trips
/// a `Date` exactly.
enum CacheSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "feed") { t in
                t.primaryKey("key", .text)
                t.column("payload", .blob).notNull()
                t.column("saved_at", .double).notNull()
            }
            try db.create(table: "image") { t in
                t.primaryKey("url", .text)
                t.column("content_type", .text).notNull()
                t.column("bytes", .blob).notNull()
                t.column("size", .integer).notNull()
                t.column("saved_at", .double).notNull()
                // A counter, not a clock: LRU eviction only needs an order of use.
                t.column("last_used", .integer).notNull().indexed()
            }
        }
        return migrator
    }
}
