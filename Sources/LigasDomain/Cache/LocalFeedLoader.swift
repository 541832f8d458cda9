import FoundationEssentials

/// Use cases "Load feed from cache" and "Cache feed", for one kind of feed.
///
/// `load` delivers only a valid entry (younger than the cache policy's max age) and never
/// changes the store: deleting stale data is the job of `ValidateCacheUseCase` at start-up.
/// Feeds read or written once are kept decoded in memory (`DecodedFeedMemo`), shared by copies
/// of this loader; the store stays the source of truth across restarts.
///
/// `Resource` must be `Codable`, but only `init` says so, and keeps the coding as two functions:
/// the Swift runtime checks a generic type's own requirements whenever it makes the type's
/// metadata, and each check it has not made before scans every conformance in the binary. The
/// daemon makes these loaders at every start; their `Encodable` and `Decodable` checks, for each
/// feed type and its array, were 4.5M of the 24.7M instructions from exec to the first reply.
public struct LocalFeedLoader<Key: Hashable & Sendable, Resource: Sendable>: Loader {
    private let store: any FeedStore
    private let feedKey: @Sendable (Key) -> FeedKey
    private let currentDate: @Sendable () -> Date
    private let policy: CachePolicy
    private let memo = DecodedFeedMemo<Resource>()
    private let encode: @Sendable (Resource) throws -> Data
    private let decode: @Sendable (Data) throws -> Resource

    public init(
        store: any FeedStore,
        feedKey: @escaping @Sendable (Key) -> FeedKey,
        currentDate: @escaping @Sendable () -> Date,
        policy: CachePolicy = CachePolicy()
    ) where Resource: Codable {
        self.store = store
        self.feedKey = feedKey
        self.currentDate = currentDate
        self.policy = policy
        self.encode = { try FeedCoding.encode($0) }
        self.decode = { try FeedCoding.decode(Resource.self, from: $0) }
    }

    /// Throws `LigasError.noCache` when the cache is empty or expired, and the store's error when it fails.
    public func load(_ key: Key) async throws -> Loaded<Resource> {
        let cacheKey = feedKey(key).cacheKey
        if let remembered = memo.entry(for: cacheKey) {
            guard policy.validate(remembered.timestamp, against: currentDate()) else { throw LigasError.noCache }
            return Loaded(remembered.resource, from: .cache)
        }
        guard let cached = try store.retrieve(cacheKey),
              policy.validate(cached.timestamp, against: currentDate())
        else { throw LigasError.noCache }
        let resource: Resource
        do {
            resource = try decode(cached.payload)
        } catch {
            throw CacheError.undecodable(key: cacheKey)
        }
        memo.remember(resource, timestamp: cached.timestamp, for: cacheKey)
        return Loaded(resource, from: .cache)
    }

    /// What `load` would deliver, if it can be told without touching the store: a valid entry
    /// already decoded in memory. Nil means "ask `load`" (nothing in memory, or expired), not
    /// "nothing cached". Synchronous, so a server can answer a cache hit without a task.
    public func loadFromMemory(_ key: Key) -> Loaded<Resource>? {
        guard let remembered = memo.entry(for: feedKey(key).cacheKey),
              policy.validate(remembered.timestamp, against: currentDate())
        else { return nil }
        return Loaded(remembered.resource, from: .cache)
    }

    /// Replaces the cached entry for `key`, stamped with the current date.
    public func save(_ resource: Resource, for key: Key) throws {
        let cacheKey = feedKey(key).cacheKey
        let feed = CachedFeed(payload: try encode(resource), timestamp: currentDate())
        memo.forget(cacheKey)
        try store.replace(cacheKey, with: feed)
        memo.remember(resource, timestamp: feed.timestamp, for: cacheKey)
    }

    public func deleteCache(for key: Key) throws {
        let cacheKey = feedKey(key).cacheKey
        memo.forget(cacheKey)
        try store.delete(cacheKey)
    }
}
