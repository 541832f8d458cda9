import FoundationEssentials
import Synchronization

/// Use case "Spend a provider request": every request to a metered provider is counted, the
/// count persisted, and none is made past the monthly budget, nor while the provider's last
/// word is that nothing remains (until its reset time, or for an hour when it gave none).
/// Months are calendar months in UTC.
///
/// A count that cannot be stored (a failing cache file) does not stop requests: it is kept in
/// memory for this process instead, and shown as such in `status`.
public final class MonthlyRequestBudget: Sendable {
    public let budget: Int
    private let store: any RequestCountStore
    private let currentDate: @Sendable () -> Date
    /// Check-and-count must be one step, or two concurrent requests could both take the last one.
    private let unstored = Mutex<[String: RequestCount]>([:])

    /// How long a provider's "none left" holds when it does not say when its quota resets.
    public static let reportLifetime: TimeInterval = 3600

    public init(budget: Int, store: any RequestCountStore, currentDate: @escaping @Sendable () -> Date) {
        self.budget = budget
        self.store = store
        self.currentDate = currentDate
    }

    /// Counts one request to `provider`; throws `quotaExceeded` (and counts nothing) when none may be made.
    @discardableResult
    public func spend(_ provider: String) throws -> RequestCount {
        try unstored.withLock { unstored in
            let now = currentDate()
            let month = Self.month(of: now)
            let key = "\(provider)/\(month)"
            let current = Self.latest(stored: try? store.requestCount(provider: provider, month: month), unstored[key])
                ?? RequestCount(provider: provider, month: month, used: 0)
            if current.used >= budget {
                throw LigasError.quotaExceeded(
                    "\(provider): this month's budget of \(budget) requests is spent (\(month)); cached data still answers")
            }
            if current.reportedRemaining(at: now) == 0 {
                throw LigasError.quotaExceeded("\(provider) reported no requests left on its plan this period")
            }
            do {
                return try store.countRequest(provider: provider, month: month)
            } catch {
                var counted = current
                counted.used += 1
                unstored[key] = counted
                return counted
            }
        }
    }

    /// What the provider said of its quota with its last answer; `resetsIn`: seconds until its
    /// quota resets, when it says.
    public func report(_ provider: String, limit: Int?, remaining: Int?, resetsIn: TimeInterval? = nil) {
        guard limit != nil || remaining != nil else { return }
        let now = currentDate()
        let month = Self.month(of: now)
        let until = now.addingTimeInterval(resetsIn ?? Self.reportLifetime)
        unstored.withLock { unstored in
            do {
                try store.recordReport(provider: provider, month: month, limit: limit, remaining: remaining, until: until)
            } catch {
                let key = "\(provider)/\(month)"
                var count = unstored[key] ?? RequestCount(provider: provider, month: month, used: 0)
                count.reportedLimit = limit ?? count.reportedLimit
                count.reportedRemaining = remaining ?? count.reportedRemaining
                count.reportedUntil = until
                unstored[key] = count
            }
        }
    }

    public func usage(_ provider: String) -> QuotaUsage {
        let now = currentDate()
        let month = Self.month(of: now)
        let count = unstored.withLock { unstored in
            Self.latest(stored: try? store.requestCount(provider: provider, month: month), unstored["\(provider)/\(month)"])
        } ?? RequestCount(provider: provider, month: month, used: 0)
        let left = max(0, budget - count.used)
        return QuotaUsage(
            provider: provider, month: month, used: count.used, budget: budget,
            remaining: count.reportedRemaining(at: now).map { min(left, max(0, $0)) } ?? left,
            reportedLimit: count.reportedLimit, reportedRemaining: count.reportedRemaining)
    }

    /// What is known of a month's count when the store once took it and then stopped taking
    /// writes (a full disk): the larger count, and the provider's later word. Either alone would
    /// forget requests made since, and let the budget be overrun.
    static func latest(stored: RequestCount?, _ unstored: RequestCount?) -> RequestCount? {
        guard let stored, let unstored else { return stored ?? unstored }
        var count = stored.used >= unstored.used ? stored : unstored
        let report = (stored.reportedUntil ?? .distantPast) >= (unstored.reportedUntil ?? .distantPast) ? stored : unstored
        count.reportedLimit = report.reportedLimit
        count.reportedRemaining = report.reportedRemaining
        count.reportedUntil = report.reportedUntil
        return count
    }

    /// `2026-11`, in UTC.
    static func month(of date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        // `.gmt`, not `TimeZone(identifier: "UTC")`: without Foundation's ICU that one is nil.
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month], from: date)
        let year = String(parts.year ?? 0), month = String(parts.month ?? 0)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + (month.count < 2 ? "0" : "") + month
    }
}
