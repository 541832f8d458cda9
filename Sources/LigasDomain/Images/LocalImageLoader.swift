import FoundationEssentials

/// Use cases "Load image data from cache" and "Cache image data".
///
/// Small images read once are kept whole in memory (`RememberedImages`), shared by copies of this
/// loader; larger ones are streamed from the store piece by piece, so a big image never sits in
/// memory whole.
public struct LocalImageLoader: Loader {
    public static let defaultChunkSize = 256 * 1024

    private let store: any ImageDataStore
    private let currentDate: @Sendable () -> Date
    private let policy: CachePolicy
    private let chunkSize: Int
    private let remembered: RememberedImages

    public init(
        store: any ImageDataStore, currentDate: @escaping @Sendable () -> Date,
        policy: CachePolicy = CachePolicy(), chunkSize: Int = LocalImageLoader.defaultChunkSize,
        rememberingAtMost maxBytes: Int = RememberedImagesLimits.maxBytes,
        imagesOfAtMost maxImageBytes: Int = RememberedImagesLimits.maxImageBytes
    ) {
        self.store = store
        self.currentDate = currentDate
        self.policy = policy
        self.chunkSize = chunkSize
        self.remembered = RememberedImages(maxBytes: maxBytes, maxImageBytes: maxImageBytes)
    }

    /// Throws `LigasError.noCache` when the image is not cached or has expired.
    public func load(_ url: URL) async throws -> Loaded<ImageStream> {
        if let image = remembered.image(for: url) {
            if policy.validate(image.timestamp, against: currentDate()) {
                return Loaded(ImageStream(image, chunkSize: chunkSize), from: .cache)
            }
            remembered.forget(url)  // the store's copy is as old: it says so below
        }
        let generation = remembered.generation
        guard let stored = try store.openImage(for: url),
              policy.validate(stored.timestamp, against: currentDate())
        else { throw LigasError.noCache }
        guard let sha256 = stored.sha256, remembered.accepts(size: stored.size) else {
            return Loaded(ImageStream(stored, chunkSize: chunkSize), from: .cache)
        }
        let image = RememberedImage(image: try stored.whole(), sha256: sha256, timestamp: stored.timestamp)
        remembered.remember(image, for: url, readAt: generation)
        return Loaded(ImageStream(image, chunkSize: chunkSize), from: .cache)
    }

    /// What `load` would deliver, if it can be told without touching the store: a valid image
    /// whole in memory. Nil means "ask `load`" (not in memory, or expired), not "nothing cached".
    /// Synchronous, so a server can answer a cache hit without a task.
    public func loadFromMemory(_ url: URL) -> Loaded<RememberedImage>? {
        guard let image = remembered.image(for: url), policy.validate(image.timestamp, against: currentDate())
        else { return nil }
        return Loaded(image, from: .cache)
    }

    /// The images kept in memory are forgotten before the store changes and again after it (see
    /// `RememberedImages`); the store is told first that they were used since it was last asked,
    /// so that its eviction does not take the most used logos for the least.
    public func save(_ image: ImageData, for url: URL) throws {
        store.markUsed(remembered.urlsByUse)
        remembered.forgetAll()
        defer { remembered.forgetAll() }
        try store.insertImage(CachedImage(image: image, timestamp: currentDate()), for: url)
    }
}

/// How much `LocalImageLoader` keeps in memory by default. The providers' logos and photos are
/// 5–100 KiB: 2 MiB holds every logo of several leagues; an image over 1 MiB is streamed from the
/// store each time.
public enum RememberedImagesLimits {
    public static let maxBytes = 2 << 20
    public static let maxImageBytes = 1 << 20
}
