import LigasDomain

/// Tries `primary`; if it fails, delivers `fallback`'s result, or else `fallback`'s error.
public struct FallbackLoader<Key: Hashable & Sendable, Value: Sendable>: Loader {
    private let primary: any Loader<Key, Value>
    private let fallback: any Loader<Key, Value>

    public init(primary: any Loader<Key, Value>, fallback: any Loader<Key, Value>) {
        self.primary = primary
        self.fallback = fallback
    }

    public func load(_ key: Key) async throws -> Loaded<Value> {
        do {
            return try await primary.load(key)
        } catch {
            try Task.checkCancellation()
        }
        return try await fallback.load(key)
    }
}
