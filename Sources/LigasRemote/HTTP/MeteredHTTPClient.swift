import FoundationEssentials
import LigasDomain
import Synchronization

/// Counts every request to a metered provider (the RapidAPI ones) against its monthly budget
/// before sending it, and refuses once the budget is spent; reads RapidAPI's rate-limit headers
/// from each answer; turns the provider's 429 into `quotaExceeded`. Requests elsewhere (image
/// hosts, other sources) pass untouched: they cost no quota.
public struct MeteredHTTPClient: HTTPClient {
    /// A provider whose requests count: everything beneath `baseURL`.
    public struct Meter: Sendable {
        public let provider: DataSource
        public let baseURL: URL

        public init(provider: DataSource, baseURL: URL) {
            self.provider = provider
            self.baseURL = baseURL
        }
    }

    /// What the journal hears about.
    public enum Event: Sendable, Equatable {
        /// This request used the last one of the month's budget.
        case budgetSpent(provider: String, budget: Int)
        /// A request was refused for want of quota (said once per provider and process).
        case refused(provider: String, reason: String)
        /// The provider answered 429.
        case rateLimited(provider: String, reportedRemaining: Int?)
    }

    public static let limitHeader = "x-ratelimit-requests-limit"
    public static let remainingHeader = "x-ratelimit-requests-remaining"
    /// Seconds until the provider's quota resets.
    public static let resetHeader = "x-ratelimit-requests-reset"

    private let base: any HTTPClient
    private let meters: [Meter]
    private let budget: MonthlyRequestBudget
    private let onEvent: @Sendable (Event) -> Void
    private let refusalsTold = RefusalsTold()

    public init(base: any HTTPClient, meters: [Meter], budget: MonthlyRequestBudget, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.base = base
        self.meters = meters
        self.budget = budget
        self.onEvent = onEvent
    }

    public func get(_ url: URL, headers: [String: String], maxBodyBytes: Int) async throws -> (HTTPResponseHead, HTTPBody) {
        let text = url.absoluteString
        guard let meter = meters.first(where: { text.hasPrefix($0.baseURL.absoluteString) }) else {
            return try await base.get(url, headers: headers, maxBodyBytes: maxBodyBytes)
        }
        let provider = meter.provider.rawValue
        let count: RequestCount
        do {
            count = try budget.spend(provider)
        } catch LigasError.quotaExceeded(let reason) {
            if refusalsTold.first(provider) { onEvent(.refused(provider: provider, reason: reason)) }
            throw LigasError.quotaExceeded(reason)
        }
        if count.used == budget.budget { onEvent(.budgetSpent(provider: provider, budget: budget.budget)) }
        let (head, body) = try await base.get(url, headers: headers, maxBodyBytes: maxBodyBytes)
        let remaining = Self.count(head.headers[Self.remainingHeader])
        budget.report(
            provider, limit: Self.count(head.headers[Self.limitHeader]), remaining: remaining,
            resetsIn: Self.count(head.headers[Self.resetHeader]).map(TimeInterval.init))
        if head.status == 429 {
            onEvent(.rateLimited(provider: provider, reportedRemaining: remaining))
            throw LigasError.quotaExceeded(
                "\(RemoteFailure.origin(of: url)) answered HTTP 429 for \(url.path): \(provider)'s rate or monthly quota is spent")
        }
        return (head, body)
    }

    /// A header's count, if it is one: a whole number from 0 to 10^9 (a month's requests, or
    /// seconds to a reset). Anything else a provider sends (negative, huge, a float, text) is
    /// ignored, never believed.
    static func count(_ header: String?) -> Int? {
        header.flatMap { Int($0.trimmingWhitespace()) }.flatMap { (0...1_000_000_000).contains($0) ? $0 : nil }
    }

    /// Providers whose refusal was already told, so the journal hears it once per process.
    final class RefusalsTold: Sendable {
        private let told = Mutex<Set<String>>([])
        func first(_ provider: String) -> Bool { told.withLock { $0.insert(provider).inserted } }
    }
}
