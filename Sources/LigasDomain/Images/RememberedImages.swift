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
/// used going first. Entries are validated against the cache policy on every use, like stored
/// ones, and a save through the loader forgets them all, before it writes and again after (the
/// store may evict others to make room); an image read before that second time is not kept (the
/// `generation` a read starts from must still be current when it is kept), so the memory never
/// answers what the store would not.
final class RememberedImages: Sendable {
    private struct Entries {
        var byURL: [URL: (image: RememberedImage, lastUse: UInt64)] = [:]
        var bytes = 0
        var uses: UInt64 = 0
        var generation: UInt64 = 0
    }

    private let entries = Mutex(Entries())
    let maxBytes: Int
    let maxImageBytes: Int

    init(maxBytes: Int, maxImageBytes: Int) {
        self.maxBytes = maxBytes
        self.maxImageBytes = min(maxImageBytes, maxBytes)
    }

    func accepts(size: Int) -> Bool { size <= maxImageBytes }

    /// Counts as a use (see `remember`).
    func image(for url: URL) -> RememberedImage? {
        entries.withLock { entries in
            guard let found = entries.byURL[url] else { return nil }
            entries.uses += 1
            entries.byURL[url]?.lastUse = entries.uses
            return found.image
        }
    }

    /// Changes whenever the images are forgotten: what a read that may keep its image starts from.
    var generation: UInt64 { entries.withLock { $0.generation } }

    /// Keeps `remembered`, unless the images were forgotten since `generation` was read (a save
    /// ran meanwhile: what was read may be older than what the store now holds).
    func remember(_ remembered: RememberedImage, for url: URL, readAt generation: UInt64) {
        let size = remembered.image.bytes.count
        guard accepts(size: size) else { return }
        entries.withLock { entries in
            guard entries.generation == generation else { return }
            if let old = entries.byURL.removeValue(forKey: url) { entries.bytes -= old.image.image.bytes.count }
            while entries.bytes + size > maxBytes,
                  let oldest = entries.byURL.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                entries.byURL[oldest.key] = nil
                entries.bytes -= oldest.value.image.image.bytes.count
            }
            entries.uses += 1
            entries.byURL[url] = (remembered, entries.uses)
            entries.bytes += size
        }
    }

    /// The URLs kept, least recently used first.
    var urlsByUse: [URL] {
        entries.withLock { $0.byURL.sorted { $0.value.lastUse < $1.value.lastUse }.map(\.key) }
    }

    func forget(_ url: URL) {
        entries.withLock { entries in
            if let old = entries.byURL.removeValue(forKey: url) { entries.bytes -= old.image.image.bytes.count }
        }
    }

    func forgetAll() {
        entries.withLock { entries in
            entries = Entries(generation: entries.generation + 1)
        }
    }
}
