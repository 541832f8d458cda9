import LigasDomain
import Logging

/// Decorates a remote loader with use case "Cache feed": every value it delivers is saved
/// (replacing the old entry) before it is delivered. A save error is logged, never delivered.
public struct CachingLoader<Key: Hashable & Sendable, Value: Sendable>: Loader {
    private let decoratee: any Loader<Key, Value>
    private let cache: any ResourceCache<Key, Value>
    private let logger: Logger

    public init(decoratee: any Loader<Key, Value>, cache: any ResourceCache<Key, Value>, logger: Logger) {
        self.decoratee = decoratee
        self.cache = cache
        self.logger = logger
    }

    public func load(_ key: Key) async throws -> Loaded<Value> {
        let loaded = try await decoratee.load(key)
        do {
            try cache.save(loaded.value, for: key)
        } catch {
            logger.warning("cache save failed; delivering anyway", metadata: [
                "key": "\(key)", "error": "\(error)",
            ])
        }
        return loaded
    }
}
