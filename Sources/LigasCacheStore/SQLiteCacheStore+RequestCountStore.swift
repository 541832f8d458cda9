import FoundationEssentials
import LigasDomain

extension SQLiteCacheStore: RequestCountStore {
    public func requestCount(provider: String, month: String) throws -> RequestCount? {
        try read { db in
            try db.firstRow(
                """
                SELECT used, reported_limit, reported_remaining, reported_until FROM request_count
                WHERE provider = ? AND month = ?
                """,
                [provider, month]
            ).map { row in
                RequestCount(
                    provider: provider, month: month, used: try row.int(0),
                    reportedLimit: row.optionalInt(1), reportedRemaining: row.optionalInt(2),
                    reportedUntil: row.optionalDouble(3).map(Date.init(timeIntervalSinceReferenceDate:)))
            }
        }
    }

    public func countRequest(provider: String, month: String) throws -> RequestCount {
        try write { db in
            try db.run(
                """
                INSERT INTO request_count (provider, month, used) VALUES (?, ?, 1)
                ON CONFLICT (provider, month) DO UPDATE SET used = used + 1
                """,
                [provider, month])
        }
        return try requestCount(provider: provider, month: month) ?? RequestCount(provider: provider, month: month, used: 1)
    }

    public func recordReport(provider: String, month: String, limit: Int?, remaining: Int?, until: Date) throws {
        try write { db in
            try db.run(
                """
                INSERT INTO request_count (provider, month, used, reported_limit, reported_remaining, reported_until)
                VALUES (?, ?, 0, ?, ?, ?)
                ON CONFLICT (provider, month) DO UPDATE SET
                    reported_limit = COALESCE(excluded.reported_limit, reported_limit),
                    reported_remaining = COALESCE(excluded.reported_remaining, reported_remaining),
                    reported_until = excluded.reported_until
                """,
                [provider, month, limit, remaining, until.timeIntervalSinceReferenceDate])
        }
    }
}
