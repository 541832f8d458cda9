import LigasDomain

/// Tries `primary`; if it fails, delivers `fallback`'s result.
///
/// When both fail, the error is the fallback's unless `combineErrors` says otherwise (the
/// remote-first matches load turns "remote down + cache empty" into one error of its own).
public struct FallbackLoader<Key: Hashable & Sendable, Value: Sendable>: Loader {
    private let primary: any Loader<Key, Value>
    private let fallback: any Loader<Key, Value>
    private let onPrimaryFailure: @Sendable (Key, any Error) -> Void
    private let combineErrors: @Sendable (_ primary: any Error, _ fallback: any Error) -> any Error

    public init(
        primary: any Loader<Key, Value>,
        fallback: any Loader<Key, Value>,
        onPrimaryFailure: @escaping @Sendable (Key, any Error) -> Void = { _, _ in },
        combineErrors: @escaping @Sendable (any Error, any Error) -> any Error = { _, fallback in fallback }
    ) {
        self.primary = primary
        self.fallback = fallback
        self.onPrimaryFailure = onPrimaryFailure
        self.combineErrors = combineErrors
    }

    public func load(_ key: Key) async throws -> Loaded<Value> {
        let primaryError: any Error
        do {
            return try await primary.load(key)
        } catch {
            try Task.checkCancellation()
            primaryError = error
        }
        onPrimaryFailure(key, primaryError)
        do {
            return try await fallback.load(key)
        } catch {
            try Task.checkCancellation()
            throw combineErrors(primaryError, error)
        }
    }
}
