import Synchronization

/// A cache file found corrupt while in use (a damaged page: its header is whole, so it opened),
/// and what the store did about it, for the log.
public enum CorruptFileRecovery: Hashable, Sendable {
    /// Emptied in place and its tables made again: what it cached is gone, the cache works.
    case recreated
    /// It could not be emptied (why): reads and saves fail until the next start tries again.
    case failed(CacheStoreError)
}

extension SQLiteCacheStore {
    /// The store's error for a failed read or write, `recreationsBefore` being `recreations` as
    /// the operation began. A corrupt file is emptied first: a damaged page fails every read and
    /// save that meets it, for good, and checking every page at start-up instead would read the
    /// whole file (up to 320 MiB) before ligasd could answer.
    func failure(_ error: any Error, recreationsBefore seen: Int) -> CacheStoreError {
        let failure = CacheStoreError.from(error, path: path)
        if case .corrupt = failure { recreateCorruptFile(unlessRecreatedSince: seen) }
        return failure
    }

    /// In place, on the writer, while no write is under way: the connections stay (readers in a
    /// transaction finish on what they saw), and the file keeps its inode, page size and WAL mode.
    /// Once per corruption: operations that failed on the file before it was emptied find it done.
    private func recreateCorruptFile(unlessRecreatedSince seen: Int) {
        guard !recreationFailed.load(ordering: .acquiring) else { return }
        let outcome = (try? database.withWriter { db -> CorruptFileRecovery? in
            guard recreations.load(ordering: .acquiring) == seen else { return nil }
            do {
                try db.resetToEmpty()
                try CacheSchema.migrations.apply(on: db)
                recreations.add(1, ordering: .releasing)
                return .recreated
            } catch {
                recreationFailed.store(true, ordering: .releasing)
                return .failed(CacheStoreError.from(error, path: path))
            }
        }) ?? nil
        if let outcome { onCorruptFile(outcome) }
    }
}
