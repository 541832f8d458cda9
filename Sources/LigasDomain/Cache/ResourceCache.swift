/// The "Cache feed" port that caching decorators save through.
public protocol ResourceCache<Key, Value>: Sendable {
    associatedtype Key: Hashable & Sendable
    associatedtype Value: Sendable
    func save(_ value: Value, for key: Key) throws
}

extension LocalFeedLoader: ResourceCache {}
