import FoundationEssentials
import Synchronization

/// The feeds a `LocalFeedLoader` last read or wrote, decoded, with their cache timestamps.
///
/// Why: a cache hit would otherwise read SQLite and decode JSON on every request, which was most
/// of a cached round trip. Entries are validated against the cache policy on every use, exactly
/// like stored ones, and every write through the loader updates them, so the memo never answers
/// anything the store would not. It holds at most what the store holds.
final class DecodedFeedMemo<Resource: Sendable>: Sendable {
    private let entries = Mutex<[String: (resource: Resource, timestamp: Date)]>([:])

    func entry(for key: String) -> (resource: Resource, timestamp: Date)? {
        entries.withLock { $0[key] }
    }

    func remember(_ resource: Resource, timestamp: Date, for key: String) {
        entries.withLock { $0[key] = (resource, timestamp) }
    }

    func forget(_ key: String) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }
}
