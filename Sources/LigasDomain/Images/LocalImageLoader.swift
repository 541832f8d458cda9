import FoundationEssentials

/// Use cases "Load image data from cache" and "Cache image data".
public struct LocalImageLoader: Loader {
    public static let defaultChunkSize = 256 * 1024

    private let store: any ImageDataStore
    private let currentDate: @Sendable () -> Date
    private let policy: CachePolicy
    private let chunkSize: Int

    public init(
        store: any ImageDataStore, currentDate: @escaping @Sendable () -> Date,
        policy: CachePolicy = CachePolicy(), chunkSize: Int = LocalImageLoader.defaultChunkSize
    ) {
        self.store = store
        self.currentDate = currentDate
        self.policy = policy
        self.chunkSize = chunkSize
    }

    /// Throws `LigasError.noCache` when the image is not cached or has expired.
    public func load(_ url: URL) async throws -> Loaded<ImageStream> {
        guard let stored = try store.openImage(for: url),
              policy.validate(stored.timestamp, against: currentDate())
        else { throw LigasError.noCache }
        return Loaded(ImageStream(stored, chunkSize: chunkSize), from: .cache)
    }

    public func save(_ image: ImageData, for url: URL) throws {
        try store.insertImage(CachedImage(image: image, timestamp: currentDate()), for: url)
    }
}
