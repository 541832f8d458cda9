import FoundationEssentials
import LigasCacheStore
import Logging

/// Opens the cache file the way the daemon wants it: a corrupt file is replaced by a new one (at
/// opening, or when a damaged page is met in use), and a location that cannot be written, or
/// another program's database, falls back to an in-memory cache (the daemon still serves, it just
/// cannot keep anything across restarts). All are logged.
public enum CacheStoreOpening {
    public static func open(fileURL: URL, imageCapacityBytes: Int, logger: Logger) throws -> SQLiteCacheStore {
        do {
            let (store, recreated) = try SQLiteCacheStore.openRecreatingIfCorrupt(
                fileURL: fileURL, imageCapacityBytes: imageCapacityBytes,
                onCorruptFile: { log($0, path: fileURL.path, logger: logger) })
            if recreated {
                logger.error("cache file was corrupt; deleted and recreated", metadata: ["path": "\(fileURL.path)"])
            }
            return store
        } catch let error as CacheStoreError {
            logger.error("cache file unusable; caching in memory only", metadata: [
                "path": "\(fileURL.path)", "error": "\(error)",
            ])
            return try SQLiteCacheStore.inMemory(imageCapacityBytes: imageCapacityBytes)
        }
    }

    private static func log(_ recovery: CorruptFileRecovery, path: String, logger: Logger) {
        switch recovery {
        case .recreated:
            logger.error("cache file found corrupt in use; emptied and recreated", metadata: ["path": "\(path)"])
        case .failed(let error):
            logger.error("cache file found corrupt in use and could not be recreated; caching nothing until restarted", metadata: [
                "path": "\(path)", "error": "\(error)",
            ])
        }
    }

    /// `$CACHE_DIRECTORY` (systemd's `CacheDirectory=`), else `$XDG_CACHE_HOME/ligasd`, else `~/.cache/ligasd`,
    /// `~` being `$HOME`, or the user database's home without it. (Every `DaemonConfiguration()`
    /// computes this default, so it reads the environment it is given and looks up no passwd entry
    /// unless it must.)
    public static func defaultFileURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let directory: URL
        if let cache = environment["CACHE_DIRECTORY"]?.split(separator: ":").first, !cache.isEmpty {
            directory = URL(fileURLWithPath: String(cache))
        } else if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            directory = URL(fileURLWithPath: xdg).appendingPathComponent("ligasd")
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            directory = URL(fileURLWithPath: home).appendingPathComponent(".cache/ligasd")
        } else {
            directory = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/ligasd")
        }
        return directory.appendingPathComponent("cache.sqlite")
    }
}
