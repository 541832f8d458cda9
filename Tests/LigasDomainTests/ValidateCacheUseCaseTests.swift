import Foundation
import LigasDomain
import LigasTestSupport
import Testing

@Suite("Validate cache")
struct ValidateCacheUseCaseTests {
    let feeds = FeedStoreSpy()
    let images = ImageStoreSpy()
    let clock = TestClock()

    var sut: ValidateCacheUseCase {
        ValidateCacheUseCase(feeds: feeds, images: images, currentDate: clock.currentDate)
    }

    func stub(_ key: String, _ value: some Encodable, age: TimeInterval) throws {
        feeds.stub(key, CachedFeed(payload: try JSONEncoder().encode(value), timestamp: clock.now.addingTimeInterval(-age)))
    }

    @Test("Keeps every entry that is fresh and decodes")
    func keepsValidEntries() throws {
        try stub("teams/serie-a", Fixtures.teams("emelec"), age: 0)
        try stub("players/emelec", [Fixtures.player()], age: .sevenDays - .oneSecond)
        try stub("matches/serie-a", Fixtures.matches(), age: 10)

        let report = try sut.validateCache()

        #expect(report.deletedCount == 0)
        #expect(feeds.feeds.keys.sorted() == ["matches/serie-a", "players/emelec", "teams/serie-a"])
    }

    @Test("Deletes entries that have expired")
    func deletesExpired() throws {
        try stub("teams/serie-a", Fixtures.teams("emelec"), age: .sevenDays)
        try stub("teams/serie-b", Fixtures.teams("imbabura"), age: 0)

        let report = try sut.validateCache()

        #expect(report.expiredFeeds == ["teams/serie-a"])
        #expect(feeds.feeds.keys.sorted() == ["teams/serie-b"])
    }

    @Test("Deletes entries that fail to decode as what their key promises")
    func deletesUndecodable() throws {
        try stub("teams/serie-a", [Fixtures.player()], age: 0)        // players under a teams key
        feeds.stub("matches/serie-a", CachedFeed(payload: Data("{".utf8), timestamp: clock.now))
        try stub("mystery/thing", Fixtures.teams("emelec"), age: 0)  // a key this version does not know

        let report = try sut.validateCache()

        #expect(report.undecodableFeeds.sorted() == ["matches/serie-a", "mystery/thing", "teams/serie-a"])
        #expect(feeds.feeds.isEmpty)
    }

    @Test("Deletes images saved seven or more days ago")
    func deletesExpiredImages() throws {
        let old = URL(string: "https://img.test/old.png")!, fresh = URL(string: "https://img.test/new.png")!
        let image = ImageData(bytes: Fixtures.png, contentType: "image/png")
        images.stub(old, CachedImage(image: image, timestamp: clock.now.addingTimeInterval(-.sevenDays)))
        images.stub(fresh, CachedImage(image: image, timestamp: clock.now))

        let report = try sut.validateCache()

        #expect(report.expiredImages == 1)
        #expect(Array(images.images.keys) == [fresh])
    }

    @Test("Delivers the store's error when the cache cannot be read")
    func retrievalError() {
        feeds.failRetrieval(with: Fixtures.AnyError("corrupt"))

        #expect(throws: Fixtures.AnyError("corrupt")) { try sut.validateCache() }
    }
}
