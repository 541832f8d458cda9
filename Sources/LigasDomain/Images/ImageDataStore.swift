import Foundation

/// An image as the store keeps it.
public struct CachedImage: Hashable, Sendable {
    public let image: ImageData
    public let timestamp: Date

    public init(image: ImageData, timestamp: Date) {
        self.image = image
        self.timestamp = timestamp
    }
}

/// The cache port for image blobs, keyed by the URL they were downloaded from.
public protocol ImageDataStore: Sendable {
    func retrieveImage(for url: URL) throws -> CachedImage?
    /// Inserts or replaces; the store evicts least-recently-used images to stay under its size cap.
    func insertImage(_ image: CachedImage, for url: URL) throws
    /// Returns how many images were deleted.
    func deleteImages(savedAtOrBefore cutoff: Date) throws -> Int
}
