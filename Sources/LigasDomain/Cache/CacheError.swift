/// Failures of the cache use cases themselves (the store's own errors pass through unchanged).
public enum CacheError: Error, Hashable, Sendable {
    /// A stored entry no longer decodes as what its key promises.
    case undecodable(key: String)
    /// An image was replaced or evicted while it was being streamed from the cache.
    case changedWhileReading(key: String)
    /// The cache failed (a corrupt file, say) under the `offline` policy, where nothing else may
    /// answer: what the specs call `noCache`, with the store's failure as the reason.
    case unreadable(reason: String)
}
