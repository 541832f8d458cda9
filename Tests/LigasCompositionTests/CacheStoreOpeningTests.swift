import Foundation
import LigasCacheStore
import LigasComposition
import LigasDomain
import LigasTestSupport
import Testing

@Suite("Opening the cache for the daemon")
struct CacheStoreOpeningTests {
    let directory = TemporaryDirectory()

    @Test("A corrupt cache file is replaced by a new one, and that is logged")
    func corruptFileIsRecreated() throws {
        let file = directory.url.appendingPathComponent("cache.sqlite")
        try Data(repeating: 0x13, count: 4096).write(to: file)
        let logs = LogRecorder()

        let store = try CacheStoreOpening.open(fileURL: file, imageCapacityBytes: 1 << 20, logger: logs.logger)
        try store.replace("k", with: CachedFeed(payload: Data("v".utf8), timestamp: .now))

        #expect(logs.messages == ["cache file was corrupt; deleted and recreated"])
        #expect(try SQLiteCacheStore(fileURL: file).retrieve("k")?.payload == Data("v".utf8))
    }

    @Test("A page of the cache file found corrupt in use: the file is emptied and recreated at once, and that is logged once, as an error")
    func corruptPageIsRecreated() throws {
        let file = directory.url.appendingPathComponent("cache.sqlite")
        try SQLiteCacheStore(fileURL: file).replace("k", with: CachedFeed(payload: Data("old".utf8), timestamp: .now))
        try BadCacheFiles.overwriteRootPage(of: "feed", in: file)
        let logs = LogRecorder()

        let store = try CacheStoreOpening.open(fileURL: file, imageCapacityBytes: 1 << 20, logger: logs.logger)
        #expect(logs.messages.isEmpty)
        #expect(throws: CacheStoreError.corrupt(path: file.path)) { try store.retrieve("k") }
        #expect(try store.retrieve("k") == nil)
        try store.replace("k", with: CachedFeed(payload: Data("new".utf8), timestamp: .now))

        #expect(logs.all.map { "\($0.level) \($0.message)" } == ["error cache file found corrupt in use; emptied and recreated"])
        #expect(try SQLiteCacheStore(fileURL: file).retrieve("k")?.payload == Data("new".utf8))
    }

    @Test("Another program's SQLite database is refused (a named error, logged), left as it was, and the cache kept in memory")
    func anotherProgramsDatabase() throws {
        let file = directory.url.appendingPathComponent("notes.sqlite")
        try BadCacheFiles.createOtherProgramsDatabase(at: file)
        let before = try Data(contentsOf: file)
        let logs = LogRecorder()

        let store = try CacheStoreOpening.open(fileURL: file, imageCapacityBytes: 1 << 20, logger: logs.logger)
        try store.replace("k", with: CachedFeed(payload: Data("v".utf8), timestamp: .now))

        #expect(logs.messages == ["cache file unusable; caching in memory only"])
        #expect(logs.all.first?.metadata["error"] == "\(CacheStoreError.notALigasdCache(path: file.path))")
        #expect(try store.journalMode() == "memory")
        #expect(try Data(contentsOf: file) == before)
    }

    @Test("An unwritable location falls back to an in-memory cache, and that is logged")
    func unwritableFallsBackToMemory() throws {
        let logs = LogRecorder()

        let store = try CacheStoreOpening.open(
            fileURL: URL(fileURLWithPath: "/proc/ligas-nope/cache.sqlite"), imageCapacityBytes: 1 << 20, logger: logs.logger)
        try store.replace("k", with: CachedFeed(payload: Data("v".utf8), timestamp: .now))

        #expect(logs.messages == ["cache file unusable; caching in memory only"])
        #expect(try store.journalMode() == "memory")
        #expect(try store.retrieve("k") != nil)
    }

    @Test("The default location follows CACHE_DIRECTORY, then XDG_CACHE_HOME, then ~/.cache")
    func defaultLocation() {
        #expect(CacheStoreOpening.defaultFileURL(environment: ["CACHE_DIRECTORY": "/var/cache/ligasd", "XDG_CACHE_HOME": "/x"]).path
                == "/var/cache/ligasd/cache.sqlite")
        #expect(CacheStoreOpening.defaultFileURL(environment: ["XDG_CACHE_HOME": "/home/u/.cache"]).path
                == "/home/u/.cache/ligasd/cache.sqlite")
        #expect(CacheStoreOpening.defaultFileURL(environment: ["HOME": "/home/u"]).path == "/home/u/.cache/ligasd/cache.sqlite")
        #expect(CacheStoreOpening.defaultFileURL(environment: [:]).path.hasSuffix("/.cache/ligasd/cache.sqlite"))
    }
}
