import FoundationEssentials
import LigasDomain

/// Use case "Load image data from remote": download and validate, streaming.
///
/// Validation, as the specs ask: HTTP 200, non-empty, within the size cap, and either an image
/// content type or image magic bytes; a content type whose format has magic bytes we know (PNG,
/// JPEG, GIF, WebP) must come with them, and bytes we know say their own type. The first bytes
/// are read before the stream is handed out, so an empty or non-image body fails the load itself
/// rather than the middle of a stream. The cap is enforced on the announced length up front and
/// on the bytes as they arrive.
public struct RemoteImageLoader: Loader {
    public static let defaultMaxBytes = 32 * 1024 * 1024

    private let client: any HTTPClient
    private let maxBytes: Int

    public init(client: any HTTPClient, maxBytes: Int = RemoteImageLoader.defaultMaxBytes) {
        self.client = client
        self.maxBytes = maxBytes
    }

    public func load(_ url: URL) async throws -> Loaded<ImageStream> {
        let (head, body) = try await client.get(url, headers: ["Accept": "image/*"], maxBodyBytes: maxBytes)
        try RemoteStatus.check(head.status, url: url)
        func invalid(_ what: String) -> LigasError { RemoteFailure.contractBroken(what, urls: [url]) }
        guard head.contentLength != 0 else { throw invalid("empty image") }

        // Enough bytes to know the format by, however small the pieces they arrive in.
        let rest = SingleConsumerIterator(body.makeAsyncIterator())
        var first = Data()
        while first.count < ImageSignature.prefixLength, let chunk = try await rest.next() { first.append(chunk) }
        guard !first.isEmpty else { throw invalid("empty image") }
        let sniffed = ImageSignature.contentType(ofPrefix: first)
        let contentType: String
        if let sniffed {
            contentType = sniffed  // the bytes' own word, over a label (a JPEG served as image/png)
        } else if ImageSignature.isImageContentType(head.contentType), let declared = head.contentType {
            // A format we know by its bytes must have them: an error page labelled image/png is no logo.
            guard !ImageSignature.isRecognisable(declared) else {
                throw invalid("not an image (content type \(declared), but not its bytes)")
            }
            contentType = declared
        } else {
            throw invalid("not an image (content type \(head.contentType ?? "none"))")
        }
        let stream = ImageStream(
            contentType: contentType, expectedLength: head.contentLength,
            chunks: FirstThenRest(first: first, rest: rest)
        )
        return Loaded(stream, from: .remote)
    }
}

/// Holds a body iterator that was already started (to peek at the first chunk).
///
/// `@unchecked Sendable` because an `ImageStream` is single-pass: exactly one consumer pulls
/// from it, one `next()` at a time, which is all the iterator needs.
final class SingleConsumerIterator: @unchecked Sendable {
    private var base: any AsyncIteratorProtocol<Data, any Error>

    init(_ base: any AsyncIteratorProtocol<Data, any Error>) {
        self.base = base
    }

    func next() async throws -> Data? {
        try await base.next()
    }
}

/// The peeked first chunk, then the rest of the body.
struct FirstThenRest: AsyncSequence, Sendable {
    typealias Element = Data
    let first: Data
    let rest: SingleConsumerIterator

    func makeAsyncIterator() -> Iterator { Iterator(first: first, rest: rest) }

    struct Iterator: AsyncIteratorProtocol {
        var first: Data?
        let rest: SingleConsumerIterator

        mutating func next() async throws -> Data? {
            if let chunk = first {
                first = nil
                return chunk
            }
            return try await rest.next()
        }
    }
}
