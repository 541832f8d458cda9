import FoundationEssentials

/// Image bytes delivered as a stream of chunks, so the daemon can forward them while they arrive.
///
/// Pull-based: nothing is read or downloaded ahead of the consumer, which is what gives a slow
/// client backpressure all the way to the remote. Cancelling the consuming task ends the stream
/// with neither data nor error (the specs' cancel course).
public struct ImageStream: AsyncSequence, Sendable {
    public typealias Element = Data

    public let contentType: String
    /// The total size when the source knows it up front (cache: always; remote: Content-Length).
    public let expectedLength: Int?
    /// The SHA-256 of the whole content when the source already knows it (the cache stores it),
    /// so whoever forwards the bytes need not hash them again.
    public let sha256: Data?
    /// The stored image the chunks are read from, when they are nothing else (a cache hit): whoever
    /// forwards the bytes may read its pieces itself, one at a time, rather than iterate.
    public let stored: StoredImage?
    private let chunks: any AsyncSequence<Data, any Error> & Sendable

    public init(
        contentType: String, expectedLength: Int?, sha256: Data? = nil,
        chunks: any AsyncSequence<Data, any Error> & Sendable
    ) {
        self.init(contentType: contentType, expectedLength: expectedLength, sha256: sha256, stored: nil, chunks: chunks)
    }

    private init(
        contentType: String, expectedLength: Int?, sha256: Data?, stored: StoredImage?,
        chunks: any AsyncSequence<Data, any Error> & Sendable
    ) {
        self.contentType = contentType
        self.expectedLength = expectedLength
        self.sha256 = sha256
        self.stored = stored
        self.chunks = chunks
    }

    /// A stream over bytes already in memory, cut into `chunkSize` slices without copying.
    public init(_ image: ImageData, chunkSize: Int) {
        self.init(
            contentType: image.contentType, expectedLength: image.bytes.count,
            chunks: DataChunks(data: image.bytes, chunkSize: chunkSize)
        )
    }

    /// A stream over an image remembered whole in memory, cut into `chunkSize` slices without copying.
    public init(_ remembered: RememberedImage, chunkSize: Int) {
        self.init(
            contentType: remembered.image.contentType, expectedLength: remembered.image.bytes.count,
            sha256: remembered.sha256, chunks: DataChunks(data: remembered.image.bytes, chunkSize: chunkSize)
        )
    }

    /// A stream over a stored image, reading one piece from the store at a time (on demand)
    /// and cutting it into `chunkSize` slices.
    public init(_ stored: StoredImage, chunkSize: Int) {
        self.init(
            contentType: stored.contentType, expectedLength: stored.size, sha256: stored.sha256, stored: stored,
            chunks: StoredImageChunks(stored: stored, chunkSize: chunkSize)
        )
    }

    /// The same header over other chunks: how decorators (caching, counting) wrap a stream.
    /// They deliver the same bytes, so the digest stays; `stored` goes, since reading it would
    /// pass the decorator by.
    public func replacingChunks(with chunks: any AsyncSequence<Data, any Error> & Sendable) -> ImageStream {
        ImageStream(contentType: contentType, expectedLength: expectedLength, sha256: sha256, chunks: chunks)
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: chunks.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: any AsyncIteratorProtocol<Data, any Error>
        var finished = false

        public mutating func next() async throws -> Data? {
            guard !finished else { return nil }
            do {
                // Ask the source even when cancelled: that is how a download learns to stop.
                let chunk = try await base.next()
                if Task.isCancelled || chunk == nil {
                    finished = true
                    return nil  // cancel course: no data after a cancel...
                }
                return chunk
            } catch where Task.isCancelled {
                finished = true
                return nil  // ...and no error either
            }
        }
    }

    /// Reads the whole stream into memory, refusing more than `maxBytes`.
    public func collect(maxBytes: Int = .max) async throws -> ImageData {
        var bytes = Data()
        if let expectedLength, expectedLength <= maxBytes { bytes.reserveCapacity(expectedLength) }
        for try await chunk in self {
            guard bytes.count + chunk.count <= maxBytes else {
                throw LigasError.invalidData("image larger than \(maxBytes) bytes")
            }
            bytes.append(chunk)
        }
        return ImageData(bytes: bytes, contentType: contentType)
    }
}

/// In-memory bytes as a sequence of `chunkSize` slices.
public struct DataChunks: AsyncSequence, Sendable {
    public typealias Element = Data
    let data: Data
    let chunkSize: Int

    public init(data: Data, chunkSize: Int) {
        precondition(chunkSize > 0, "chunk size must be positive")
        self.data = data
        self.chunkSize = chunkSize
    }

    public func makeAsyncIterator() -> Iterator { Iterator(data: data, chunkSize: chunkSize, offset: data.startIndex) }

    public struct Iterator: AsyncIteratorProtocol {
        let data: Data
        let chunkSize: Int
        var offset: Data.Index

        public mutating func next() async throws -> Data? {
            guard offset < data.endIndex else { return nil }
            let end = data.index(offset, offsetBy: chunkSize, limitedBy: data.endIndex) ?? data.endIndex
            defer { offset = end }
            return data[offset..<end]
        }
    }
}

/// A stored image's pieces, read when the consumer asks, as `chunkSize` slices.
struct StoredImageChunks: AsyncSequence, Sendable {
    let stored: StoredImage
    let chunkSize: Int

    func makeAsyncIterator() -> Iterator { Iterator(stored: stored, chunkSize: chunkSize) }

    struct Iterator: AsyncIteratorProtocol {
        let stored: StoredImage
        let chunkSize: Int
        var nextPiece = 0
        var current = DataChunks.Iterator(data: Data(), chunkSize: 1, offset: 0)

        init(stored: StoredImage, chunkSize: Int) {
            self.stored = stored
            self.chunkSize = chunkSize
        }

        mutating func next() async throws -> Data? {
            while true {
                if let chunk = try await current.next() { return chunk }
                guard nextPiece < stored.pieceCount else { return nil }
                let piece = try stored.piece(nextPiece)
                nextPiece += 1
                current = DataChunks.Iterator(data: piece, chunkSize: chunkSize, offset: piece.startIndex)
            }
        }
    }
}
