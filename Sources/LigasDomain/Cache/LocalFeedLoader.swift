import Foundation

/// Use cases "Load feed from cache" and "Cache feed", for one kind of feed.
///
/// `load` delivers only a valid entry (younger than the cache policy's max age) and never
/// changes the store: deleting stale data is the job of `CacheValidator` at start-up.
public struct LocalFeedLoader<Key: Hashable & Sendable, Resource: Codable & Sendable>: Loader {
    private let store: any FeedStore
    private let feedKey: @Sendable (Key) -> FeedKey
    private let currentDate: @Sendable () -> Date
    private let policy: CachePolicy

    public init(
        store: any FeedStore,
        feedKey: @escaping @Sendable (Key) -> FeedKey,
        currentDate: @escaping @Sendable () -> Date,
        policy: CachePolicy = CachePolicy()
    ) {
        self.store = store
        self.feedKey = feedKey
        self.currentDate = currentDate
        self.policy = policy
    }

    /// Throws `LigasError.noCache` when the cache is empty or expired, and the store's error when it fails.
    public func load(_ key: Key) async throws -> Loaded<Resource> {
        let cacheKey = feedKey(key).cacheKey
        guard let cached = try store.retrieve(cacheKey),
              policy.validate(cached.timestamp, against: currentDate())
        else { throw LigasError.noCache }
        do {
            return Loaded(try FeedCoding.decode(Resource.self, from: cached.payload), from: .cache)
        } catch {
            throw CacheError.undecodable(key: cacheKey)
        }
    }

    /// Replaces the cached entry for `key`, stamped with the current date.
    public func save(_ resource: Resource, for key: Key) throws {
        let feed = CachedFeed(payload: try FeedCoding.encode(resource), timestamp: currentDate())
        try store.replace(feedKey(key).cacheKey, with: feed)
    }

    public func deleteCache(for key: Key) throws {
        try store.delete(feedKey(key).cacheKey)
    }
}
