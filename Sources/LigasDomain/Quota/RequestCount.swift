import FoundationEssentials

/// How many requests ligasd made to one provider in one calendar month (UTC), and what the
/// provider itself last said about its quota, when it says (RapidAPI's rate-limit headers).
public struct RequestCount: Hashable, Sendable {
    public let provider: String
    /// `2026-11`.
    public let month: String
    public var used: Int
    public var reportedLimit: Int?
    public var reportedRemaining: Int?
    /// Until when the report holds: the provider's own reset time, or a while after it was made.
    /// The provider's period need not be the calendar month, so a "none left" must not outlast it.
    public var reportedUntil: Date?

    public init(
        provider: String, month: String, used: Int, reportedLimit: Int? = nil, reportedRemaining: Int? = nil,
        reportedUntil: Date? = nil
    ) {
        self.provider = provider
        self.month = month
        self.used = used
        self.reportedLimit = reportedLimit
        self.reportedRemaining = reportedRemaining
        self.reportedUntil = reportedUntil
    }

    /// The provider's word, while it holds.
    func reportedRemaining(at now: Date) -> Int? {
        guard let reportedUntil, now < reportedUntil else { return nil }
        return reportedRemaining
    }
}

/// The port where request counts persist across restarts (the cache file, in production).
public protocol RequestCountStore: Sendable {
    func requestCount(provider: String, month: String) throws -> RequestCount?
    /// Adds one request to the month's count, in one transaction, and returns the new count.
    func countRequest(provider: String, month: String) throws -> RequestCount
    /// Keeps what the provider said of its own quota, and until when it holds; nil leaves a value as it was.
    func recordReport(provider: String, month: String, limit: Int?, remaining: Int?, until: Date) throws
}

/// One provider's budget as `status` shows it.
public struct QuotaUsage: Hashable, Sendable {
    public let provider: String
    public let month: String
    public let used: Int
    public let budget: Int
    /// What may still be asked this month: the budget's rest, or less if the provider said so.
    public let remaining: Int
    public let reportedLimit: Int?
    public let reportedRemaining: Int?

    public init(
        provider: String, month: String, used: Int, budget: Int, remaining: Int, reportedLimit: Int?, reportedRemaining: Int?
    ) {
        self.provider = provider
        self.month = month
        self.used = used
        self.budget = budget
        self.remaining = remaining
        self.reportedLimit = reportedLimit
        self.reportedRemaining = reportedRemaining
    }
}
