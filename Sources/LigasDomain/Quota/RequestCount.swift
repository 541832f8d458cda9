/// How many requests ligasd made to one provider in one calendar month (UTC), and what the
/// provider itself last said about its quota, when it says (RapidAPI's rate-limit headers).
public struct RequestCount: Hashable, Sendable {
    public let provider: String
    /// `2026-11`.
    public let month: String
    public var used: Int
    public var reportedLimit: Int?
    public var reportedRemaining: Int?

    public init(provider: String, month: String, used: Int, reportedLimit: Int? = nil, reportedRemaining: Int? = nil) {
        self.provider = provider
        self.month = month
        self.used = used
        self.reportedLimit = reportedLimit
        self.reportedRemaining = reportedRemaining
    }
}

/// The port where request counts persist across restarts (the cache file, in production).
public protocol RequestCountStore: Sendable {
    func requestCount(provider: String, month: String) throws -> RequestCount?
    /// Adds one request to the month's count, in one transaction, and returns the new count.
    func countRequest(provider: String, month: String) throws -> RequestCount
    /// Keeps what the provider said of its own quota; nil leaves a value as it was.
    func recordReport(provider: String, month: String, limit: Int?, remaining: Int?) throws
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
