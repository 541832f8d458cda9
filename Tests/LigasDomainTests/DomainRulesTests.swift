import Foundation
import LigasDomain
import LigasTestSupport
import Testing

@Suite("Cache policy, feed keys, image signatures, image streams")
struct DomainRulesTests {
    @Test("An entry is valid while now < timestamp + max age")
    func cachePolicy() {
        let policy = CachePolicy()
        let saved = Date(timeIntervalSinceReferenceDate: 0)
        #expect(policy.validate(saved, against: saved.addingTimeInterval(.sevenDays - 0.001)))
        #expect(!policy.validate(saved, against: saved.addingTimeInterval(.sevenDays)))
    }

    @Test("Feed keys round-trip through their cache key, and unknown keys are rejected",
          arguments: [FeedKey.leagues, .teams(league: "serie-a"), .players(team: "emelec"), .matches(league: "serie-b")])
    func feedKeyRoundTrip(key: FeedKey) {
        #expect(FeedKey(cacheKey: key.cacheKey) == key)
    }

    @Test("Unknown or malformed cache keys parse to nil", arguments: ["", "teams", "teams/", "coaches/x", "league"])
    func unknownKeys(text: String) {
        #expect(FeedKey(cacheKey: text) == nil)
    }

    @Test("Recognises PNG, JPEG, GIF and WebP by their magic bytes, and nothing else")
    func signatures() {
        #expect(ImageSignature.contentType(ofPrefix: Fixtures.png) == "image/png")
        #expect(ImageSignature.contentType(ofPrefix: Data([0xFF, 0xD8, 0xFF, 0xE0])) == "image/jpeg")
        #expect(ImageSignature.contentType(ofPrefix: Data("GIF89a....".utf8)) == "image/gif")
        #expect(ImageSignature.contentType(ofPrefix: Data("RIFF\0\0\0\0WEBPVP8 ".utf8)) == "image/webp")
        #expect(ImageSignature.contentType(ofPrefix: Data("{\"teams\":[]}".utf8)) == nil)
        #expect(ImageSignature.contentType(ofPrefix: Data()) == nil)
    }

    @Test("Collecting a stream refuses more bytes than the cap")
    func collectCap() async {
        let stream = ImageStream(ImageData(bytes: Fixtures.pngImage(size: 2000), contentType: "image/png"), chunkSize: 512)
        await #expect(throws: LigasError.invalidData("image larger than 1000 bytes")) {
            try await stream.collect(maxBytes: 1000)
        }
    }

    @Test("Matches involving a team keep only that team's fixtures")
    func matchesFilter() {
        let matches = Fixtures.matches(previous: 2, upcoming: 2)
        #expect(matches.involving(team: "Emelec").previous.count == 2)
        #expect(matches.involving(team: "Emelec").upcoming.isEmpty)
        #expect(matches.involving(team: "Macará").isEmpty)
    }
}
