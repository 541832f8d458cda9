import LigasDomain
import Synchronization

/// Use case "Load matches": the remote first, but not at any price.
///
/// - The remote answers within the budget: its answer (saved by the remote loader's caching
///   decorator). It fails within the budget: the cache, if it holds something valid.
/// - The budget is spent first: the cache, if it holds something valid, and the fetch goes on in
///   the background, so its answer still updates the cache. With nothing valid cached, the
///   caller keeps waiting for the remote (up to the HTTP client's own timeouts).
/// - Both fail: the remote's error (`notFound`, `invalidData`, `connectivity`), which says what
///   happened; "nothing cached" is only news to an `offline` caller.
///
/// `budget` returns when the budget is spent: a sleep in production, a gate in unit tests.
/// `onCacheStoodIn` hears of each remote failure the cache answered for (never of one it could
/// not: the caller gets that error).
public struct RemoteFirstLoader<Key: Hashable & Sendable, Value: Sendable>: Loader {
    private let remote: any Loader<Key, Value>
    private let cache: any Loader<Key, Value>
    private let budget: @Sendable () async -> Void
    private let onCacheStoodIn: @Sendable (Key, any Error) -> Void

    public init(
        remote: any Loader<Key, Value>,
        cache: any Loader<Key, Value>,
        budget: @escaping @Sendable () async -> Void,
        onCacheStoodIn: @escaping @Sendable (Key, any Error) -> Void = { _, _ in }
    ) {
        self.remote = remote
        self.cache = cache
        self.budget = budget
        self.onCacheStoodIn = onCacheStoodIn
    }

    /// A budget of `duration` on the continuous clock.
    public static func sleeping(_ duration: Duration) -> @Sendable () async -> Void {
        { try? await Task.sleep(for: duration) }
    }

    public func load(_ key: Key) async throws -> Loaded<Value> {
        // Unstructured on purpose: when the budget is spent and the cache answers, the fetch must
        // outlive this call to update the cache. A caller that is cancelled before then cancels it.
        let fetch = Task { [remote] in try await remote.load(key) }
        return try await withTaskCancellationHandler {
            switch await Self.race(fetch, against: budget) {
            case .remoteFinished(let result):
                return try await settle(key, result)
            case .budgetSpent:
                if let cached = try? await cache.load(key) {
                    Task { [onCacheStoodIn] in
                        if case .failure(let error) = await fetch.result { onCacheStoodIn(key, error) }
                    }
                    return cached
                }
                return try await settle(key, await fetch.result)
            }
        } onCancel: {
            fetch.cancel()
        }
    }

    /// The remote's answer, or on its failure the cache, or else the remote's error.
    private func settle(_ key: Key, _ result: Result<Loaded<Value>, any Error>) async throws -> Loaded<Value> {
        switch result {
        case .success(let loaded):
            return loaded
        case .failure(let remoteError):
            try Task.checkCancellation()
            do {
                let cached = try await cache.load(key)
                onCacheStoodIn(key, remoteError)
                return cached
            } catch {
                try Task.checkCancellation()
                throw remoteError
            }
        }
    }

    private enum Race: Sendable {
        case remoteFinished(Result<Loaded<Value>, any Error>)
        case budgetSpent
    }

    /// Whichever comes first. Not a task group: a group would wait for the fetch it lost to.
    private static func race(_ fetch: Task<Loaded<Value>, any Error>, against budget: @escaping @Sendable () async -> Void) async -> Race {
        await withCheckedContinuation { continuation in
            let first = ResumeOnce(continuation)
            let timer = Task { await budget(); first.resume(returning: .budgetSpent) }
            Task {
                first.resume(returning: .remoteFinished(await fetch.result))
                timer.cancel()
            }
        }
    }
}

/// A continuation that the first of several racers resumes; the others are ignored.
final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, Never>?>

    init(_ continuation: CheckedContinuation<T, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(returning value: T) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
