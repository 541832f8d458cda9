/// The one port every use case, decorator and composite speaks: load the value for a key.
///
/// Policy-free on purpose: `LoadPolicy` is applied by choosing which composition of loaders
/// runs (see `PolicyRoutingLoader` in the composition layer), not inside each loader.
public protocol Loader<Key, Value>: Sendable {
    associatedtype Key: Hashable & Sendable
    associatedtype Value: Sendable
    func load(_ key: Key) async throws -> Loaded<Value>
}
