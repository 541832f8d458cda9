import Foundation
import LigasCacheStore
import LigasDomain
import LigasTestSupport
import Synchronization
import Testing

/// A cache file whose header is whole (it opens) but one of whose tables has a page of garbage:
/// SQLite reports it only when a statement reads that page, and then every time.
@Suite("A corrupt page in the cache file")
struct CorruptPageTests {
    let directory = TemporaryDirectory()
    var fileURL: URL { directory.url.appendingPathComponent("cache.sqlite") }
    static let logo = URL(string: "https://x.test/logo.png")!

    /// Each damaged table, and a use of the cache that reads its page: what the daemon's start-up
    /// validation reads (feeds, images), and a stream of the image's bytes (pieces).
    enum Damaged: String, CaseIterable, CustomTestStringConvertible {
        case feed, image, imagePiece = "image_piece"

        var testDescription: String { rawValue }

        func meet(_ store: SQLiteCacheStore) throws {
            switch self {
            case .feed: _ = try store.allFeeds()
            case .image: _ = try store.deleteImages(savedAtOrBefore: Date(timeIntervalSinceReferenceDate: 0))
            case .imagePiece: _ = try store.retrieveImage(for: CorruptPageTests.logo)
            }
        }
    }

    /// Feeds and an image of two pieces, written and closed, then a page of `table` overwritten.
    func damagedCache(_ table: Damaged) throws {
        do {
            let store = try SQLiteCacheStore(fileURL: fileURL)
            try store.replace("teams/serie-a", with: feed("old"))
            try store.replace("teams/serie-b", with: feed("old"))
            try store.insertImage(image(300_000), for: Self.logo)
        }
        try BadCacheFiles.overwriteRootPage(of: table.rawValue, in: fileURL)
        #expect(try BadCacheFiles.quickCheck(fileURL) != "ok")
    }

    func feed(_ text: String) -> CachedFeed {
        CachedFeed(payload: Data(text.utf8), timestamp: Date(timeIntervalSinceReferenceDate: 1000))
    }

    func image(_ size: Int) -> CachedImage {
        CachedImage(image: ImageData(bytes: Fixtures.pngImage(size: size), contentType: "image/png"), timestamp: Date(timeIntervalSinceReferenceDate: 1000))
    }

    @Test("A page of the feed, image or image_piece table overwritten: the first use that reads it fails as corrupt, the file is emptied and made a cache again, and saves after it are kept", arguments: Damaged.allCases)
    func corruptPageMetInUse(_ table: Damaged) throws {
        try damagedCache(table)
        let recoveries = Mutex<[CorruptFileRecovery]>([])
        let store = try SQLiteCacheStore(fileURL: fileURL, onCorruptFile: { outcome in recoveries.withLock { $0.append(outcome) } })

        #expect(throws: CacheStoreError.corrupt(path: fileURL.path)) { try table.meet(store) }

        #expect(recoveries.withLock { $0 } == [.recreated])
        #expect(try BadCacheFiles.quickCheck(fileURL) == "ok")
        #expect(try store.allFeeds().isEmpty)
        #expect(try store.retrieveImage(for: Self.logo) == nil)
        try store.replace("teams/serie-a", with: feed("new"))
        try store.insertImage(image(300_000), for: Self.logo)
        let reopened = try SQLiteCacheStore(fileURL: fileURL)
        #expect(try reopened.allFeeds().map(\.key) == ["teams/serie-a"])
        #expect(try reopened.retrieveImage(for: Self.logo) == image(300_000))
        #expect(recoveries.withLock { $0 } == [.recreated])
    }

    @Test("A save that meets the corrupt page fails as corrupt, without harm, and the next save is kept")
    func saveMeetsCorruptPage() throws {
        try damagedCache(.feed)
        let recoveries = Mutex<[CorruptFileRecovery]>([])
        let store = try SQLiteCacheStore(fileURL: fileURL, onCorruptFile: { outcome in recoveries.withLock { $0.append(outcome) } })

        #expect(throws: CacheStoreError.corrupt(path: fileURL.path)) { try store.replace("teams/serie-a", with: feed("new")) }
        try store.replace("teams/serie-a", with: feed("newer"))

        #expect(recoveries.withLock { $0 } == [.recreated])
        #expect(try SQLiteCacheStore(fileURL: fileURL).retrieve("teams/serie-a") == feed("newer"))
    }

    @Test("Any other failure leaves the file alone: a full disk fails the save, and what was committed stays")
    func otherFailuresKeepTheFile() throws {
        let recoveries = Mutex<[CorruptFileRecovery]>([])
        let store = try SQLiteCacheStore(
            fileURL: fileURL, imageCapacityBytes: 1 << 20, maxFileBytes: 1 << 20,
            onCorruptFile: { outcome in recoveries.withLock { $0.append(outcome) } })
        try store.replace("teams/serie-a", with: feed("kept"))

        #expect(throws: CacheStoreError.diskFull) {
            try store.replace("teams/serie-b", with: CachedFeed(payload: Data(repeating: 7, count: 512 * 1024), timestamp: .now))
        }

        #expect(try store.retrieve("teams/serie-a") == feed("kept"))
        #expect(recoveries.withLock { $0 }.isEmpty)
    }
}
