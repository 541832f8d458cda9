/// Use case "Load leagues".
///
/// - If the cache holds a valid leagues entry, deliver it and do not save again.
/// - Otherwise deliver the bootstrap list and save it; if that save fails, delete the cached
///   entry so that no half-written list can be read later.
/// - `refresh` always re-saves the bootstrap list; `offline` behaves like `default`, because the
///   bootstrap list never needs the network.
/// - Validate cache: a cached list that is not the bootstrap list (the configured sources
///   changed since it was saved) is deleted, so the next load saves the current one.
public struct LoadLeaguesUseCase: Sendable {
    private let cache: LocalFeedLoader<AllLeagues, [League]>
    private let bootstrap: [League]

    public init(cache: LocalFeedLoader<AllLeagues, [League]>, bootstrap: [League]) {
        self.cache = cache
        self.bootstrap = bootstrap
    }

    public func load(policy: LoadPolicy = .default) async -> Loaded<[League]> {
        if policy != .refresh, let cached = try? await cache.load(AllLeagues()) {
            return cached
        }
        do {
            try cache.save(bootstrap, for: AllLeagues())
        } catch {
            try? cache.deleteCache(for: AllLeagues())
        }
        return Loaded(bootstrap, from: .builtIn)
    }

    /// The cached list, when it is already in memory (see `LocalFeedLoader.loadFromMemory`).
    public func loadFromMemory(policy: LoadPolicy = .default) -> Loaded<[League]>? {
        policy == .refresh ? nil : cache.loadFromMemory(AllLeagues())
    }

    /// Deletes a cached list that differs from the bootstrap list; true if it did.
    public func discardOutdatedCache() async throws -> Bool {
        try await discardOutdatedLeagues() != nil
    }

    /// Deletes a cached list that differs from the bootstrap list, and returns the ids of the
    /// leagues it had that the bootstrap list no longer has as they were (another source, name or
    /// logo): their cached feeds came from elsewhere. Nil when the cached list is current or absent.
    public func discardOutdatedLeagues() async throws -> [String]? {
        guard let cached = try? await cache.load(AllLeagues()).value, cached != bootstrap else { return nil }
        try cache.deleteCache(for: AllLeagues())
        return cached.filter { !bootstrap.contains($0) }.map(\.id)
    }
}
