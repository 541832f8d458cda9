import Foundation
import LigasDomain

/// A `Loader` whose answers the test scripts, and which counts its calls.
public final class LoaderStub<Key: Hashable & Sendable, Value: Sendable>: Loader, Sendable {
    private let state: Shared<(result: Result<Loaded<Value>, any Error>, keys: [Key])>

    public init(_ result: Result<Loaded<Value>, any Error>) {
        state = Shared((result, []))
    }

    public convenience init(delivering value: Value, from origin: Origin) {
        self.init(.success(Loaded(value, from: origin)))
    }

    public convenience init(failingWith error: any Error) {
        self.init(.failure(error))
    }

    public var loadedKeys: [Key] { state.withLock { $0.keys } }

    public func complete(with result: Result<Loaded<Value>, any Error>) {
        state.withLock { $0.result = result }
    }

    public func load(_ key: Key) async throws -> Loaded<Value> {
        try state.withLock { state in
            state.keys.append(key)
            return try state.result.get()
        }
    }
}
