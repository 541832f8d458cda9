import FoundationEssentials
import LigasDomain

/// Decorates the remote image loader: at most `slots` downloads at once, the others waiting their
/// turn. A download's bytes are kept in memory until the image is cached (up to the image cap,
/// 32 MiB), and each holds one of the HTTP client's connections to its host for as long as its
/// client takes to read it: without a bound, many downloads at once grew ligasd without limit
/// and left no connection for the feeds. A slot is held from the request until the stream ends,
/// fails, or is dropped.
struct LimitedDownloadsImageLoader: Loader {
    /// Fewer than AsyncHTTPClient's 8 connections per host, so feeds from a host that also serves
    /// images always find one.
    static let defaultSlots = 4

    let decoratee: any Loader<URL, ImageStream>
    let slots: DownloadSlots

    func load(_ url: URL) async throws -> Loaded<ImageStream> {
        let lease = try await slots.take()
        let loaded = try await decoratee.load(url)
        return Loaded(loaded.value.replacingChunks(with: HoldingSlot(base: loaded.value, lease: lease)), from: loaded.origin)
    }
}

/// The stream's chunks, holding the download's slot until the last one (or an error).
private struct HoldingSlot: AsyncSequence, Sendable {
    typealias Element = Data
    let base: ImageStream
    let lease: DownloadSlots.Lease

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), lease: lease) }

    struct Iterator: AsyncIteratorProtocol {
        var base: ImageStream.Iterator
        let lease: DownloadSlots.Lease

        mutating func next() async throws -> Data? {
            do {
                guard let chunk = try await base.next() else {
                    lease.release()
                    return nil
                }
                return chunk
            } catch {
                lease.release()
                throw error
            }
        }
    }
}
