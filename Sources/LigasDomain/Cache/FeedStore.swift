import FoundationEssentials

/// A feed as the store keeps it: encoded bytes plus the moment they were saved.
public struct CachedFeed: Hashable, Sendable {
    public let payload: Data
    public let timestamp: Date

    public init(payload: Data, timestamp: Date) {
        self.payload = payload
        self.timestamp = timestamp
    }
}

/// The cache port for feeds (leagues, teams, players, matches). Synchronous on purpose: a local
/// SQLite read is cheaper than a hop to another executor, and callers are already async.
public protocol FeedStore: Sendable {
    func retrieve(_ key: String) throws -> CachedFeed?
    /// Deletes the old entry and inserts the new one in one transaction: if it fails, the old data stays.
    func replace(_ key: String, with feed: CachedFeed) throws
    func delete(_ key: String) throws
    /// Every stored feed, for cache validation at start-up.
    func allFeeds() throws -> [(key: String, feed: CachedFeed)]
}
