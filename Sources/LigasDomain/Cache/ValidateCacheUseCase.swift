import FoundationEssentials

/// What a cache validation removed, for the start-up log line.
public struct CacheValidationReport: Hashable, Sendable {
    public var expiredFeeds: [String] = []
    public var undecodableFeeds: [String] = []
    public var expiredImages: Int = 0
    /// The cached leagues list was not the configured one any more (see `LoadLeaguesUseCase`).
    public var outdatedLeagues = false
    /// Feeds of leagues whose source changed since they were cached (see `discardFeeds(ofLeagues:)`).
    public var outdatedFeeds: [String] = []

    public init() {}

    public var deletedCount: Int {
        expiredFeeds.count + undecodableFeeds.count + expiredImages + (outdatedLeagues ? 1 : 0) + outdatedFeeds.count
    }
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

    /// Deletes what was cached for these leagues (teams, matches, standings, and the squads of the
    /// teams listed there): after a change of source (say, from the sample data to FlashLive) it
    /// came from a source that no longer serves them, and must not answer for 7 more days.
    /// Returns the keys deleted.
    public func discardFeeds(ofLeagues leagues: [String]) throws -> [String] {
        var keys: [String] = []
        for league in leagues {
            let teams = (try? feeds.retrieve(FeedKey.teams(league: league).cacheKey))
                .flatMap { try? FeedCoding.decode([Team].self, from: $0.payload) } ?? []
            let table = (try? feeds.retrieve(FeedKey.standings(league: league).cacheKey))
                .flatMap { try? FeedCoding.decode([Standing].self, from: $0.payload) } ?? []
            let squads = Set(teams.map(\.id) + table.map(\.team.id)).sorted().map { FeedKey.players(team: $0) }
            keys += ([.teams(league: league), .matches(league: league), .standings(league: league)] + squads).map(\.cacheKey)
        }
        var deleted: [String] = []
        for key in keys where (try? feeds.retrieve(key)) != nil {
            try feeds.delete(key)
            deleted.append(key)
        }
        return deleted
    }
}
