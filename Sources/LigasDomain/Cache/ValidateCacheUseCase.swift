import Foundation

/// What a cache validation removed, for the start-up log line.
public struct CacheValidationReport: Hashable, Sendable {
    public var expiredFeeds: [String] = []
    public var undecodableFeeds: [String] = []
    public var expiredImages: Int = 0
    /// The cached leagues list was not the configured one any more (see `LoadLeaguesUseCase`).
    public var outdatedLeagues = false

    public init() {}

    public var deletedCount: Int { expiredFeeds.count + undecodableFeeds.count + expiredImages + (outdatedLeagues ? 1 : 0) }
}

/// Use case "Validate cache", run when the daemon starts: delete every feed that has expired or
/// no longer decodes as what its key promises, and every expired image.
public struct ValidateCacheUseCase: Sendable {
    private let feeds: any FeedStore
    private let images: any ImageDataStore
    private let currentDate: @Sendable () -> Date
    private let policy: CachePolicy

    public init(
        feeds: any FeedStore, images: any ImageDataStore,
        currentDate: @escaping @Sendable () -> Date, policy: CachePolicy = CachePolicy()
    ) {
        self.feeds = feeds
        self.images = images
        self.currentDate = currentDate
        self.policy = policy
    }

    public func validateCache() throws -> CacheValidationReport {
        let now = currentDate()
        var report = CacheValidationReport()
        for (key, feed) in try feeds.allFeeds() {
            if !policy.validate(feed.timestamp, against: now) {
                try feeds.delete(key)
                report.expiredFeeds.append(key)
            } else if !(FeedKey(cacheKey: key).map { FeedCoding.decodes(feed.payload, as: $0) } ?? false) {
                try feeds.delete(key)
                report.undecodableFeeds.append(key)
            }
        }
        report.expiredImages = try images.deleteImages(savedAtOrBefore: policy.expiryCutoff(at: now))
        return report
    }
}
