/// One metered provider's requests this month, in `status` (absent when no provider is metered).
public struct ProviderQuota: Codable, Sendable, Hashable {
    /// The data source, e.g. "flashlive".
    public var provider: String
    /// The calendar month counted, UTC: "2026-11".
    public var month: String
    public var used: UInt64
    /// ligasd's own monthly budget for the provider.
    public var budget: UInt64
    /// Requests still allowed this month: the budget's rest, or less if the provider said so.
    public var remaining: UInt64
    /// What the provider last said of its plan (RapidAPI's rate-limit headers), when it did.
    public var reportedLimit: UInt64?
    public var reportedRemaining: UInt64?

    public init(
        provider: String, month: String, used: UInt64, budget: UInt64, remaining: UInt64,
        reportedLimit: UInt64? = nil, reportedRemaining: UInt64? = nil
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
