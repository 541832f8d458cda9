import FoundationEssentials

/// The specs' cache rule: an entry is valid while `now < timestamp + maxAge` (7 days by default).
public struct CachePolicy: Hashable, Sendable {
    public static let sevenDays: TimeInterval = 7 * 24 * 60 * 60

    public let maxAge: TimeInterval

    public init(maxAge: TimeInterval = CachePolicy.sevenDays) {
        self.maxAge = maxAge
    }

    public func validate(_ timestamp: Date, against now: Date) -> Bool {
        now < timestamp.addingTimeInterval(maxAge)
    }

    /// Entries stamped at or before this instant are expired at `now`.
    public func expiryCutoff(at now: Date) -> Date {
        now.addingTimeInterval(-maxAge)
    }
}
