import LigasDomain

/// The `offline` policy's loader: the cache, and nothing else. A cache that fails (a corrupt
/// file, say) holds nothing valid either: that is the specs' `noCache`, here with the failure as
/// its reason (`CacheError.unreadable`), rather than an unexpected error of the daemon.
public struct CacheOnlyLoader<Key: Hashable & Sendable, Value: Sendable>: Loader {
    private let cache: any Loader<Key, Value>

    public init(cache: any Loader<Key, Value>) {
        self.cache = cache
    }

    public func load(_ key: Key) async throws -> Loaded<Value> {
        do {
            return try await cache.load(key)
        } catch let error as LigasError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw CacheError.unreadable(reason: String(describing: error))
        }
    }
}
