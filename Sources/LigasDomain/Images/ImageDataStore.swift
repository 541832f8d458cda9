import FoundationEssentials

/// An image as the store keeps it.
public struct CachedImage: Hashable, Sendable {
    public let image: ImageData
    public let timestamp: Date

    public init(image: ImageData, timestamp: Date) {
        self.image = image
        self.timestamp = timestamp
    }
}

/// A cached image whose bytes are read from the store piece by piece while it is streamed, so
/// that streaming a big image to a slow client holds one piece in memory, not the whole image.
public struct StoredImage: Sendable {
    public let contentType: String
    public let size: Int
    public let timestamp: Date
    public let pieceCount: Int
    /// The SHA-256 of the whole image, computed once when it was cached; nil if the store does
    /// not know it (an image cached before stores kept it).
    public let sha256: Data?
    /// Piece `index` (0..<pieceCount). Throws `CacheError.changedWhileReading` if the image was
    /// replaced or evicted since it was opened.
    public let piece: @Sendable (_ index: Int) throws -> Data
    /// Whether reading a piece may wait for a write to the store to finish (a store whose one
    /// connection serves writes too): then it is best read where waiting holds up nothing else.
    public let pieceMayWaitForWrites: Bool

    public init(
        contentType: String, size: Int, timestamp: Date, pieceCount: Int, sha256: Data? = nil,
        pieceMayWaitForWrites: Bool = false, piece: @escaping @Sendable (_ index: Int) throws -> Data
    ) {
        self.contentType = contentType
        self.size = size
        self.timestamp = timestamp
        self.pieceCount = pieceCount
        self.sha256 = sha256
        self.pieceMayWaitForWrites = pieceMayWaitForWrites
        self.piece = piece
    }

    /// All of its pieces, read now, as one image.
    public func whole() throws -> ImageData {
        var bytes = Data(capacity: size)
        for index in 0..<pieceCount { bytes.append(try piece(index)) }
        return ImageData(bytes: bytes, contentType: contentType)
    }

    /// An image already whole in memory, as one piece.
    public init(_ cached: CachedImage, sha256: Data? = nil) {
        let bytes = cached.image.bytes
        self.init(
            contentType: cached.image.contentType, size: bytes.count, timestamp: cached.timestamp,
            pieceCount: 1, sha256: sha256, piece: { _ in bytes })
    }
}

/// The cache port for image blobs, keyed by the URL they were downloaded from.
public protocol ImageDataStore: Sendable {
    func retrieveImage(for url: URL) throws -> CachedImage?
    /// The image's description now, and its bytes when asked: what streaming uses.
    func openImage(for url: URL) throws -> StoredImage?
    /// Inserts or replaces; the store evicts least-recently-used images to stay under its size cap.
    func insertImage(_ image: CachedImage, for url: URL) throws
    /// Returns how many images were deleted.
    func deleteImages(savedAtOrBefore cutoff: Date) throws -> Int
    /// Marks these images as used, in this order (the last one most recently), for eviction: they
    /// were served from memory since the store last read them. Best effort.
    func markUsed(_ urls: [URL])
}

extension ImageDataStore {
    /// For stores that evict nothing (test doubles).
    public func markUsed(_ urls: [URL]) {}

    /// For stores that keep images whole (test doubles): the whole image as one piece.
    public func openImage(for url: URL) throws -> StoredImage? {
        try retrieveImage(for: url).map { StoredImage($0) }
    }
}
