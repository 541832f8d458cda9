import Foundation
@testable import LigasComposition
import LigasDomain
import LigasTestSupport
import Testing

/// Remote image downloads run at most `slots` at once: each keeps its bytes in memory until the
/// image is cached, and holds a connection to its host while its client reads.
@Suite("Remote image downloads: a bounded number at once")
struct LimitedDownloadsTests {
    /// A remote image loader whose streams deliver one chunk, then end.
    struct OneChunkImages: Loader {
        let loads = Counter()
        func load(_ url: URL) async throws -> Loaded<ImageStream> {
            loads.add(1)
            return Loaded(ImageStream(ImageData(bytes: Data([1, 2, 3]), contentType: "image/png"), chunkSize: 64), from: .remote)
        }
    }

    static let url = URL(string: "https://img.example/a.png")!

    /// Waits (polling, bounded) until `condition` holds.
    static func eventually(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<2000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
        #expect(condition(), "\(what)")
    }

    @Test("With every slot taken, the next download waits, and starts when a stream ends")
    func waitsForAStreamToEnd() async throws {
        let slots = DownloadSlots(2), remote = OneChunkImages()
        let sut = LimitedDownloadsImageLoader(decoratee: remote, slots: slots)
        let first = try await sut.load(Self.url).value
        let second = try await sut.load(Self.url).value
        let third = Task { try await sut.load(Self.url).value.collect().bytes }
        try await Self.eventually("the third download waits") { slots.waiting == 1 }
        #expect(remote.loads.total == 2)

        #expect(try await first.collect().bytes == Data([1, 2, 3]))  // its end frees its slot
        #expect(try await third.value == Data([1, 2, 3]))
        #expect(remote.loads.total == 3)
        withExtendedLifetime(second) {}
    }

    @Test("A stream dropped before its end frees its slot")
    func droppedStreamFreesItsSlot() async throws {
        let slots = DownloadSlots(1)
        let sut = LimitedDownloadsImageLoader(decoratee: OneChunkImages(), slots: slots)
        do { _ = try await sut.load(Self.url) }  // never read
        #expect(try await sut.load(Self.url).value.collect().bytes == Data([1, 2, 3]))
    }

    @Test("A download that fails before its stream frees its slot")
    func failedLoadFreesItsSlot() async throws {
        let slots = DownloadSlots(1)
        let failing = LimitedDownloadsImageLoader(decoratee: LoaderStub<URL, ImageStream>(failingWith: LigasError.connectivity("down")), slots: slots)
        await #expect(throws: LigasError.connectivity("down")) { try await failing.load(Self.url) }
        let sut = LimitedDownloadsImageLoader(decoratee: OneChunkImages(), slots: slots)
        #expect(try await sut.load(Self.url).value.collect().bytes == Data([1, 2, 3]))
    }

    @Test("A waiting download that is cancelled (its client's cancel, its deadline) stops waiting, and takes no slot")
    func cancelledWhileWaiting() async throws {
        let slots = DownloadSlots(1), remote = OneChunkImages()
        let sut = LimitedDownloadsImageLoader(decoratee: remote, slots: slots)
        let holding = try await sut.load(Self.url).value
        let waiting = Task { try await sut.load(Self.url) }
        try await Self.eventually("the second download waits") { slots.waiting == 1 }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(slots.waiting == 0 && remote.loads.total == 1)
        _ = try await holding.collect()
        #expect(try await sut.load(Self.url).value.collect().bytes == Data([1, 2, 3]))
    }

    @Test("A download that waits longer than the longest wait (slots held by clients that do not read) fails with connectivity rather than hang")
    func waitTooLong() async throws {
        let slots = DownloadSlots(1, longestWait: .milliseconds(50))
        let sut = LimitedDownloadsImageLoader(decoratee: OneChunkImages(), slots: slots)
        let holding = try await sut.load(Self.url).value
        await #expect(throws: LigasError.connectivity("no image download could start within 50 ms: all 1 slots for downloads from remotes are taken")) {
            try await sut.load(Self.url)
        }
        #expect(slots.waiting == 0)
        withExtendedLifetime(holding) {}
    }

    @Test("A slot given back while a taker comes to wait is not lost: 2,000 rounds of one holder releasing as another takes")
    func noLostWakeUp() async throws {
        let slots = DownloadSlots(1, longestWait: .seconds(60))
        for _ in 0..<2000 {
            let held = try await slots.take()
            async let next = slots.take()
            held.release()
            let taken = try await next  // hangs (and fails by the 60 s wait) if the release was lost
            taken.release()
        }
        #expect(slots.waiting == 0)
        let last = try await slots.take()  // the one slot is free again
        last.release()
    }
}
