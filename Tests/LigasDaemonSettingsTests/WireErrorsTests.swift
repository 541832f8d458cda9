@testable import LigasDaemon
import LigasDomain
import LigasProtocol
import Testing

@Suite("ligasd: domain errors on the wire")
struct WireErrorsTests {
    @Test("Offline with a cache that could not be read (a corrupt file) is noCache, its message saying why, as nothing cached is")
    func unreadableCacheIsNoCache() {
        #expect(WireMapping.errorBody(CacheError.unreadable(reason: #"corrupt(path: "/c/cache.sqlite")"#))
                == ErrorBody(code: .noCache, message: #"offline, and the cache could not be read: corrupt(path: "/c/cache.sqlite")"#))
        #expect(WireMapping.errorBody(LigasError.noCache) == ErrorBody(code: .noCache, message: "offline and nothing cached"))
    }
}
