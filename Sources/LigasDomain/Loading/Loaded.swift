/// Where a delivered value came from, so callers can report cache hits and misses.
public enum Origin: String, Hashable, Sendable {
    case cache
    case remote
    /// The built-in bootstrap list (leagues), before it was ever cached.
    case builtIn
}

/// A loaded value together with its origin.
public struct Loaded<Value: Sendable>: Sendable {
    public let value: Value
    public let origin: Origin

    public init(_ value: Value, from origin: Origin) {
        self.value = value
        self.origin = origin
    }

    public func map<T>(_ transform: (Value) throws -> T) rethrows -> Loaded<T> {
        Loaded<T>(try transform(value), from: origin)
    }
}

extension Loaded: Equatable where Value: Equatable {}
