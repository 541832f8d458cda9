import FoundationEssentials

/// The image URLs (logos and photos) that the cached feeds refer to: part of what ligasd
/// considers "its own data" when deciding which image URLs it may fetch.
public struct CachedImageReferences: Sendable {
    private let store: any FeedStore

    public init(store: any FeedStore) {
        self.store = store
    }

    /// Undecodable entries are skipped: cache validation deals with them.
    public func all() throws -> Set<URL> {
        var urls = Set<URL>()
        for (key, feed) in try store.allFeeds() {
            switch FeedKey(cacheKey: key) {
            case .leagues:
                urls.formUnion(((try? FeedCoding.decode([League].self, from: feed.payload)) ?? []).map(\.logoURL))
            case .teams:
                urls.formUnion(((try? FeedCoding.decode([Team].self, from: feed.payload)) ?? []).map(\.logoURL))
            case .players:
                urls.formUnion(((try? FeedCoding.decode([Player].self, from: feed.payload)) ?? []).compactMap(\.photoURL))
            case .standings:
                urls.formUnion(((try? FeedCoding.decode([Standing].self, from: feed.payload)) ?? []).map(\.team.logoURL))
            case .matches, .seasons, nil:
                continue
            }
        }
        return urls
    }
}
