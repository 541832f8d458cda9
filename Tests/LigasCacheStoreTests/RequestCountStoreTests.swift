import Foundation
import LigasCacheStore
import LigasDomain
import LigasTestSupport
import Testing

/// Request counts in the cache file: per provider and month, across store instances.
@Suite("SQLite cache store: request counts")
struct RequestCountStoreTests {
    let directory = TemporaryDirectory()
    var fileURL: URL { directory.url.appendingPathComponent("cache.sqlite") }

    @Test("Counts requests per provider and month, and the counts survive reopening the file")
    func countsPersist() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        #expect(try store.requestCount(provider: "flashlive", month: "2026-11") == nil)
        _ = try store.countRequest(provider: "flashlive", month: "2026-11")
        _ = try store.countRequest(provider: "flashlive", month: "2026-11")
        _ = try store.countRequest(provider: "transfermarkt", month: "2026-11")
        _ = try store.countRequest(provider: "flashlive", month: "2026-12")

        let reopened = try SQLiteCacheStore(fileURL: fileURL)

        #expect(try reopened.requestCount(provider: "flashlive", month: "2026-11")?.used == 2)
        #expect(try reopened.requestCount(provider: "transfermarkt", month: "2026-11")?.used == 1)
        #expect(try reopened.requestCount(provider: "flashlive", month: "2026-12")?.used == 1)
    }

    @Test("Keeps what the provider reported; an absent value leaves the last one; counting leaves the report alone")
    func reports() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        let until = Date(timeIntervalSinceReferenceDate: 815_000_000.25)
        try store.recordReport(provider: "flashlive", month: "2026-11", limit: 500, remaining: 490, until: until.addingTimeInterval(-60))
        _ = try store.countRequest(provider: "flashlive", month: "2026-11")
        try store.recordReport(provider: "flashlive", month: "2026-11", limit: nil, remaining: 489, until: until)

        #expect(try SQLiteCacheStore(fileURL: fileURL).requestCount(provider: "flashlive", month: "2026-11")
            == RequestCount(provider: "flashlive", month: "2026-11", used: 1, reportedLimit: 500, reportedRemaining: 489, reportedUntil: until))
    }

    @Test("Validating the cache (deleting expired feeds) keeps the counts")
    func validationKeepsCounts() throws {
        let store = try SQLiteCacheStore(fileURL: fileURL)
        _ = try store.countRequest(provider: "flashlive", month: "2026-11")
        let report = try ValidateCacheUseCase(
            feeds: store, images: store, currentDate: { Date(timeIntervalSinceReferenceDate: 1e9) }
        ).validateCache()

        #expect(report.deletedCount == 0)
        #expect(try store.requestCount(provider: "flashlive", month: "2026-11")?.used == 1)
    }
}
