import Foundation
import LigasDomain
import LigasTestSupport
import Synchronization
import Testing

/// Use case "Spend a provider request" over a store stub.
@Suite("Monthly request budget")
struct MonthlyRequestBudgetTests {
    /// Counts in memory; `failing` makes every write throw, as a broken cache file would.
    final class CountStoreStub: RequestCountStore, Sendable {
        struct Broken: Error {}
        let counts = Mutex<[String: RequestCount]>([:])
        let failing: Atomic<Bool>
        init(failing: Bool = false) { self.failing = Atomic(failing) }

        func requestCount(provider: String, month: String) throws -> RequestCount? {
            counts.withLock { $0["\(provider)/\(month)"] }
        }

        func countRequest(provider: String, month: String) throws -> RequestCount {
            if failing.load(ordering: .relaxed) { throw Broken() }
            return counts.withLock { counts in
                var count = counts["\(provider)/\(month)"] ?? RequestCount(provider: provider, month: month, used: 0)
                count.used += 1
                counts["\(provider)/\(month)"] = count
                return count
            }
        }

        func recordReport(provider: String, month: String, limit: Int?, remaining: Int?, until: Date) throws {
            if failing.load(ordering: .relaxed) { throw Broken() }
            counts.withLock { counts in
                var count = counts["\(provider)/\(month)"] ?? RequestCount(provider: provider, month: month, used: 0)
                count.reportedLimit = limit ?? count.reportedLimit
                count.reportedRemaining = remaining ?? count.reportedRemaining
                count.reportedUntil = until
                counts["\(provider)/\(month)"] = count
            }
        }
    }

    /// 2026-11-30T23:00:00Z: an hour before December.
    static let lateNovember = Date(timeIntervalSince1970: 1_796_079_600)

    @Test("Counts each request; past the budget refuses with quotaExceeded and counts nothing; providers are counted apart")
    func refusesPastBudget() throws {
        let store = CountStoreStub()
        let budget = MonthlyRequestBudget(budget: 2, store: store, currentDate: { Self.lateNovember })

        #expect(try budget.spend("flashlive").used == 1)
        #expect(try budget.spend("flashlive").used == 2)
        #expect(throws: LigasError.quotaExceeded(
            "flashlive: this month's budget of 2 requests is spent (2026-11); cached data still answers")) {
            try budget.spend("flashlive")
        }
        #expect(try budget.spend("transfermarkt").used == 1)
        #expect(budget.usage("flashlive") == QuotaUsage(
            provider: "flashlive", month: "2026-11", used: 2, budget: 2, remaining: 0, reportedLimit: nil, reportedRemaining: nil))
    }

    @Test("A new calendar month (UTC) starts from zero")
    func newMonth() throws {
        let clock = TestClock(Self.lateNovember)
        let budget = MonthlyRequestBudget(budget: 1, store: CountStoreStub(), currentDate: clock.currentDate)
        try budget.spend("flashlive")
        #expect(throws: LigasError.self) { try budget.spend("flashlive") }

        clock.advance(by: 3600)

        #expect(try budget.spend("flashlive").month == "2026-12")
    }

    @Test("The provider saying none remain refuses too; remaining is the lesser of the budget's rest and the provider's word")
    func providerReport() throws {
        let budget = MonthlyRequestBudget(budget: 100, store: CountStoreStub(), currentDate: { Self.lateNovember })
        try budget.spend("flashlive")
        budget.report("flashlive", limit: 500, remaining: 7)
        #expect(budget.usage("flashlive").remaining == 7)

        budget.report("flashlive", limit: nil, remaining: 0)

        #expect(budget.usage("flashlive").reportedLimit == 500)
        #expect(throws: LigasError.quotaExceeded("flashlive reported no requests left on its plan this period")) {
            try budget.spend("flashlive")
        }
    }

    @Test("A provider's 'none left' holds until its reset time (or an hour without one), not for the rest of the month")
    func reportExpires() throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_794_000_000))
        let budget = MonthlyRequestBudget(budget: 100, store: CountStoreStub(), currentDate: clock.currentDate)
        budget.report("flashlive", limit: 500, remaining: 0, resetsIn: 600)
        #expect(throws: LigasError.self) { try budget.spend("flashlive") }

        clock.advance(by: 600)

        #expect(try budget.spend("flashlive").used == 1)
        #expect(budget.usage("flashlive").remaining == 99)

        budget.report("transfermarkt", limit: nil, remaining: 0)
        clock.advance(by: MonthlyRequestBudget.reportLifetime - 1)
        #expect(throws: LigasError.self) { try budget.spend("transfermarkt") }
        clock.advance(by: 1)
        #expect(try budget.spend("transfermarkt").used == 1)
    }

    @Test("A store that cannot count does not stop requests: they are counted in memory, and the budget still holds")
    func failingStore() throws {
        let budget = MonthlyRequestBudget(budget: 2, store: CountStoreStub(failing: true), currentDate: { Self.lateNovember })
        try budget.spend("flashlive")
        try budget.spend("flashlive")
        #expect(throws: LigasError.self) { try budget.spend("flashlive") }
        #expect(budget.usage("flashlive").used == 2)
    }

    @Test("A store that took the count and then stopped taking writes (a full disk) cannot let the budget be overrun")
    func storeThatStopsTakingWrites() throws {
        let store = CountStoreStub()
        let budget = MonthlyRequestBudget(budget: 3, store: store, currentDate: { Self.lateNovember })
        try budget.spend("flashlive")
        store.failing.store(true, ordering: .relaxed)
        try budget.spend("flashlive")
        try budget.spend("flashlive")
        #expect(throws: LigasError.self) { try budget.spend("flashlive") }
        #expect(budget.usage("flashlive").used == 3)

        // The provider's word, kept in memory since the store refuses it, still counts.
        let reported = MonthlyRequestBudget(budget: 100, store: store, currentDate: { Self.lateNovember })
        reported.report("flashlive", limit: 500, remaining: 0)
        #expect(throws: LigasError.self) { try reported.spend("flashlive") }
    }
}
