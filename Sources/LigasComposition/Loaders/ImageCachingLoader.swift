import FoundationEssentials
import LigasDomain
import Logging

/// Decorates the remote image loader with use case "Cache image data", without giving up
/// streaming: chunks are forwarded as they arrive and copied aside, and the image is saved only
/// when the download ends complete and valid. A cancelled or failed download saves nothing.
public struct ImageCachingLoader: Loader {
    private let decoratee: any Loader<URL, ImageStream>
    private let cache: LocalImageLoader
    private let logger: Logger

    public init(decoratee: any Loader<URL, ImageStream>, cache: LocalImageLoader, logger: Logger) {
        self.decoratee = decoratee
        self.cache = cache
        self.logger = logger
    }

    public func load(_ url: URL) async throws -> Loaded<ImageStream> {
        let loaded = try await decoratee.load(url)
        let stream = loaded.value
        let tee = SavingOnCompletion(base: stream) { [cache, logger] bytes in
            do {
                try cache.save(ImageData(bytes: bytes, contentType: stream.contentType), for: url)
            } catch {
                logger.warning("image cache save failed; delivered anyway", metadata: [
                    "url": "\(url)", "error": "\(error)",
                ])
            }
        }
        return Loaded(stream.replacingChunks(with: tee), from: loaded.origin)
    }
}

/// Forwards chunks and hands the whole body to `save` once the base sequence ends normally.
struct SavingOnCompletion: AsyncSequence, Sendable {
    typealias Element = Data
    let base: ImageStream
    let save: @Sendable (Data) -> Void

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), save: save) }

    struct Iterator: AsyncIteratorProtocol {
        var base: ImageStream.Iterator
        let save: @Sendable (Data) -> Void
        var received = Data()
        var finished = false

        mutating func next() async throws -> Data? {
            guard !finished else { return nil }
            guard let chunk = try await base.next() else {
                finished = true
                // A cancelled consumer also sees the end of the stream: that is not a complete image.
                if !Task.isCancelled, !received.isEmpty { save(received) }
                return nil
            }
            received.append(chunk)
            return chunk
        }
    }
}
