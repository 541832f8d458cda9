import FoundationEssentials
import Synchronization

/// A small image whole in memory, with its digest and the time it was cached.
public struct RememberedImage: Sendable {
    public let image: ImageData
    /// The SHA-256 of `image.bytes`, as the store computed it when the image was cached.
    public let sha256: Data
    public let timestamp: Date

    public init(image: ImageData, sha256: Data, timestamp: Date) {
        self.image = image
        self.sha256 = sha256
        self.timestamp = timestamp
    }
}

/// The small images a `LocalImageLoader` last read from its store, whole. Why: logos and photos
/// are asked for again and again (every list a desktop client shows), and each time the store
/// would be searched and read piece by piece, and the bytes copied twice more; remembered, a
/// cached logo is ready now, and a server can send it from its read handler with no task.
///
/// Bounded: only images of at most `maxImageBytes`, and `maxBytes` in all, the least recently
/// remembered going first. Entries are validated against the cache policy on every use, like
/// stored ones, and any save through the loader forgets them all (the store may evict others to
/// make room), so the memory never answers what the store would not. One thing it skips: an
/// image served from memory is not marked used in the store's eviction order.
final class RememberedImages: Sendable {
    private struct Entries {
        var byURL: [URL: RememberedImage] = [:]
        /// Oldest first.
        var order: [URL] = []
        var bytes = 0
    }

    private let entries = Mutex(Entries())
    let maxBytes: Int
    let maxImageBytes: Int

    init(maxBytes: Int, maxImageBytes: Int) {
        self.maxBytes = maxBytes
        self.maxImageBytes = min(maxImageBytes, maxBytes)
    }

    func accepts(size: Int) -> Bool { size <= maxImageBytes }

    func image(for url: URL) -> RememberedImage? {
        entries.withLock { $0.byURL[url] }
    }

    func remember(_ remembered: RememberedImage, for url: URL) {
        let size = remembered.image.bytes.count
        guard accepts(size: size) else { return }
        entries.withLock { entries in
            if let old = entries.byURL.removeValue(forKey: url) {
                entries.bytes -= old.image.bytes.count
                entries.order.removeAll { $0 == url }
            }
            while entries.bytes + size > maxBytes, !entries.order.isEmpty {
                let oldest = entries.order.removeFirst()
                entries.bytes -= entries.byURL.removeValue(forKey: oldest)?.image.bytes.count ?? 0
            }
            entries.byURL[url] = remembered
            entries.order.append(url)
            entries.bytes += size
        }
    }

    func forgetAll() {
        entries.withLock { $0 = Entries() }
    }
}
