import LigasDomain

/// Applies a caller's `LoadPolicy` by choosing which composition of loaders runs; `offline` is
/// the cache only, a failing cache included (`CacheOnlyLoader`).
public struct PolicyRoutingLoader<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let standard: any Loader<Key, Value>
    private let refresh: any Loader<Key, Value>
    private let offline: any Loader<Key, Value>

    public init(
        default standard: any Loader<Key, Value>,
        refresh: any Loader<Key, Value>,
        offline: any Loader<Key, Value>
    ) {
        self.standard = standard
        self.refresh = refresh
        self.offline = CacheOnlyLoader(cache: offline)
    }

    public func load(_ key: Key, policy: LoadPolicy) async throws -> Loaded<Value> {
        switch policy {
        case .default: try await standard.load(key)
        case .refresh: try await refresh.load(key)
        case .offline: try await offline.load(key)
        }
    }
}

extension PolicyRoutingLoader {
    /// Concurrent `default` loads of one key share one flight, and so do `refresh` loads; the
    /// cache check is inside the flight, so a caller that missed the cache just before another
    /// flight saved cannot start a second fetch. (Not for images: a stream has one consumer.)
    public func sharingFlights() -> Self {
        Self(default: SingleFlightLoader(decoratee: standard), refresh: SingleFlightLoader(decoratee: refresh), offline: offline)
    }

    /// Teams, players, images: the cache if it holds something valid, else the remote (cached).
    /// If both fail, the remote's error.
    public static func cacheFirst(
        cache: any Loader<Key, Value>, remote: any Loader<Key, Value>
    ) -> Self {
        Self(default: FallbackLoader(primary: cache, fallback: remote), refresh: remote, offline: cache)
    }

    /// Matches: the remote (cached) first within `budget`, else the cache if it holds something
    /// valid (see `RemoteFirstLoader`). If both fail, the remote's error.
    public static func remoteFirst(
        remote: any Loader<Key, Value>, cache: any Loader<Key, Value>,
        budget: @escaping @Sendable () async -> Void,
        onCacheStoodIn: @escaping @Sendable (Key, any Error) -> Void = { _, _ in }
    ) -> Self {
        let standard = RemoteFirstLoader(remote: remote, cache: cache, budget: budget, onCacheStoodIn: onCacheStoodIn)
        return Self(default: standard, refresh: remote, offline: cache)
    }
}
