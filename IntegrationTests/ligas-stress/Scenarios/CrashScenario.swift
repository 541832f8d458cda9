import Foundation
import LigasClient
import LigasProtocol
import LigasTestSupport

/// Issue #6, crash: `kill -9` ligasd at random moments while it writes the cache, 100 times.
///
/// Clients keep asking with the `refresh` policy for many distinct feeds and big images, so the
/// daemon is always saving something. Every answer with source "remote" was saved before it
/// was sent: it is committed, and its version is recorded. After each kill: the file passes
/// `PRAGMA integrity_check`, no row is partial, and the next ligasd, asked `offline`, still has
/// every committed entry in at least its committed version. Lost entries: goal 0.
enum CrashScenario {
    /// One cache entry the clients refresh: a feed or a generated image.
    enum Entry: Hashable, Sendable, CustomStringConvertible {
        case teams(String), players(String), matches(String), image(Int)

        static var all: [Entry] {
            Question.leagueIDs.map(Entry.teams) + Question.teamIDs.map(Entry.players) + Question.leagueIDs.map(Entry.matches)
                + (0..<VersionedRemote.imageCount).map(Entry.image)
        }

        var description: String {
            switch self {
            case .teams(let league): "teams/\(league)"
            case .players(let team): "players/\(team)"
            case .matches(let league): "matches/\(league)"
            case .image(let index): "image/\(index)"
            }
        }

        /// Asks for the entry; returns the answer's source and the version it carries.
        func fetch(_ client: LigasClient, remote: VersionedRemote, cache: CachePolicy) async throws -> (ResultSource, Int?) {
            switch self {
            case .teams(let league):
                let result = try await client.teams(league: league, cache: cache)
                return (result.source, result.value.map { VersionedRemote.version(of: $0.name) ?? -1 }.min())
            case .players(let team):
                let result = try await client.players(team: team, cache: cache)
                return (result.source, result.value.map { VersionedRemote.version(of: $0.name) ?? -1 }.min())
            case .matches(let league):
                let result = try await client.matches(league: league, cache: cache)
                let descriptions = result.value.previous.map(\.description) + result.value.upcoming.map(\.description)
                return (result.source, descriptions.map { VersionedRemote.version(of: $0) ?? -1 }.min())
            case .image(let index):
                let download = try await client.image(.url(remote.imageURL(index)), cache: cache)
                var bytes = Data()
                for try await chunk in download { bytes.append(chunk) }
                return (download.header.source, VersionedRemote.version(ofImage: bytes, index: index))
            }
        }
    }

    static func run(_ options: Options) async throws -> Goals {
        var goals = Goals("crash")
        let kills = try options.int("kills", default: 100)
        let workerCount = try options.int("clients", default: 4)
        let directory = options.workDirectory.appendingPathComponent("daemon")
        let remote = try await VersionedRemote(sampleData: options.sampleData)
        let committed = Shared<[Entry: Int]>([:])
        var tally = CrashTally()

        for round in 1...max(kills, 1) where kills > 0 {
            let daemon = try await StressDaemon.start(
                options, directory: directory, remote: remote.baseURL.absoluteString, logName: "ligasd-\(round).log")
            tally.recreated += daemon.cacheWasRecreated ? 1 : 0
            // First: everything committed before the previous kill is still there.
            let requestsBefore = remote.server.requestCount
            tally.add(try await verify(daemon, committed: committed.value, remote: remote))
            tally.remoteTouchedOffline += remote.server.requestCount - requestsBefore

            // Then: refresh traffic, and a kill -9 at a random moment of it.
            let killed = Shared(false)
            // Each worker owns its own entries: two refreshes of one entry at once may save in
            // either order (the older download can finish last), which is not what this tests.
            let workers = (0..<workerCount).map { worker in
                let entries = Entry.all.enumerated().filter { $0.offset % workerCount == worker }.map(\.element)
                return Task { await refreshUntilKilled(daemon, entries: entries, remote: remote, committed: committed, killed: killed) }
            }
            try await Task.sleep(for: .milliseconds(Int64.random(in: 50...1500)))
            killed.withLock { $0 = true }
            await daemon.kill9()
            for worker in workers {
                let (replies, unexpected) = await worker.value
                tally.committedReplies += replies
                tally.errorsBeforeKill += unexpected
            }
            tally.kills += 1
            tally.add(try await inspectFile(daemon.cachePath))
            if round % 10 == 0 {
                Report.progress("crash: \(round) kills, \(committed.value.count) entries committed, \(tally.lost) lost")
            }
        }

        // Last: the remote is gone (its port closed); a new ligasd asked offline must still
        // deliver every committed entry from the cache.
        try await remote.server.shutdown()
        let daemon = try await StressDaemon.start(
            options, directory: directory, remote: remote.baseURL.absoluteString, logName: "ligasd-final.log")
        tally.recreated += daemon.cacheWasRecreated ? 1 : 0
        let final = try await verify(daemon, committed: committed.value, remote: remote)
        tally.add(final)
        await daemon.stop()

        goals.figure("kills", tally.kills)
        goals.figure("committed_replies", tally.committedReplies)
        goals.figure("committed_entries", committed.value.count)
        goals.figure("checks", tally.checks)
        goals.figure("final_checked", final.checks)
        goals.figure("lost", tally.lost)
        goals.figure("integrity_failures", tally.integrityFailures)
        goals.figure("partial_entries", tally.partialRows)
        goals.figure("inspection_errors", tally.inspectionErrors)
        goals.figure("caches_recreated", tally.recreated)
        goals.figure("errors_before_kill", tally.errorsBeforeKill)
        goals.figure("remote_requests_while_offline", tally.remoteTouchedOffline)
        goals.check(tally.kills == kills, "\(kills) kills (\(tally.kills))")
        goals.check(committed.value.count > 0, "some entries were committed")
        goals.check(final.checks == committed.value.count, "every committed entry checked at the end")
        goals.check(tally.lost == 0, "no committed entry lost (\(tally.lost))")
        goals.check(tally.integrityFailures == 0, "the cache passes integrity_check after every kill")
        goals.check(tally.partialRows == 0, "no partial entry after any kill")
        goals.check(tally.inspectionErrors == 0, "the file checks ran (sqlite3 understood this cache schema)")
        goals.check(tally.recreated == 0, "ligasd never found the cache corrupt")
        goals.check(tally.errorsBeforeKill == 0, "no request failed before a kill (\(tally.errorsBeforeKill))")
        goals.check(tally.remoteTouchedOffline == 0, "offline checks never reached the remote")
        return goals
    }

    struct CrashTally {
        var kills = 0
        var committedReplies = 0
        var checks = 0
        var lost = 0
        var integrityFailures = 0
        var partialRows = 0
        var recreated = 0
        var errorsBeforeKill = 0
        var remoteTouchedOffline = 0
        var inspectionErrors = 0

        mutating func add(_ check: Verification) {
            checks += check.checks
            lost += check.lost
            partialRows += check.damaged
        }

        mutating func add(_ inspection: FileInspection) {
            integrityFailures += inspection.intact ? 0 : 1
            partialRows += inspection.partialRows
            inspectionErrors += inspection.queriesFailed ? 1 : 0
        }
    }

    /// Refreshes random entries until the daemon dies; returns the answers that came from the
    /// remote (committed) and the failures that happened before the kill (unexpected).
    private static func refreshUntilKilled(
        _ daemon: StressDaemon, entries: [Entry], remote: VersionedRemote, committed: Shared<[Entry: Int]>, killed: Shared<Bool>
    ) async -> (committed: Int, unexpected: Int) {
        guard let client = try? await daemon.client() else { return (0, killed.value ? 0 : 1) }
        defer { client.close() }
        var replies = 0
        while true {
            let entry = entries.randomElement()!
            do {
                let (source, version) = try await within(.seconds(60), "\(entry)") {
                    try await entry.fetch(client, remote: remote, cache: .refresh)
                }
                guard source == .remote, let version, version >= 0 else {
                    Report.progress("crash: \(entry) refreshed from \(source) with version \(String(describing: version))")
                    return (replies, 1)
                }
                committed.withLock { $0[entry] = max($0[entry] ?? 0, version) }
                replies += 1
            } catch {
                if !killed.value { Report.progress("crash: \(entry) failed before the kill: \(Failure(error))") }
                return (replies, killed.value ? 0 : 1)
            }
        }
    }

    struct Verification {
        var checks = 0
        var lost = 0
        /// Entries never committed but found in the cache with bytes no answer of the remote had.
        var damaged = 0
    }

    /// Asks for every committed entry with the `offline` policy: it must come from the cache, in
    /// its committed version or a newer one, and whole.
    private static func verify(_ daemon: StressDaemon, committed: [Entry: Int], remote: VersionedRemote) async throws -> Verification {
        var result = Verification()
        let client = try await daemon.client()
        defer { client.close() }
        for entry in Entry.all {
            guard let version = committed[entry] else {
                // Never committed: it may be absent, but if it is there it must be whole.
                switch await asked(entry, client: client, remote: remote) {
                case .success((_, let found)) where found == nil || found! < 0:
                    result.damaged += 1
                    Report.progress("crash: DAMAGED \(entry): cached, but not as the remote sent it")
                case .success:
                    break
                case .failure(.named(let code)) where code == .noCache || code == .notFound:
                    break
                case .failure(let failure):
                    result.damaged += 1
                    Report.progress("crash: \(entry) (never committed) failed offline: \(failure)")
                }
                continue
            }
            result.checks += 1
            do {
                let (source, found) = try await within(.seconds(60), "\(entry)") {
                    try await entry.fetch(client, remote: remote, cache: .offline)
                }
                if source != .cache || (found ?? -1) < version {
                    result.lost += 1
                    Report.progress("crash: LOST \(entry): committed v\(version), cache has \(String(describing: found)) from \(source)")
                }
            } catch {
                result.lost += 1
                Report.progress("crash: LOST \(entry) (committed v\(version)): \(Failure(error))")
            }
        }
        return result
    }

    private static func asked(_ entry: Entry, client: LigasClient, remote: VersionedRemote) async -> Result<(ResultSource, Int?), Failure> {
        do {
            return .success(try await within(.seconds(60), "\(entry)") { try await entry.fetch(client, remote: remote, cache: .offline) })
        } catch {
            return .failure(Failure(error))
        }
    }

    struct FileInspection {
        var intact = false
        var partialRows = 0
        var queriesFailed = false
    }

    /// The cache file as SQLite itself sees it, before any ligasd opens it again.
    private static func inspectFile(_ path: String) async throws -> FileInspection {
        // Where image bytes live depends on the cache schema's version: in `image` itself, in
        // `image_data` beside it, or in `image_piece` rows. Check whichever this file has.
        let (_, tableList) = try await Children.run("/usr/bin/sqlite3", ["-batch", path, "SELECT name FROM sqlite_master WHERE type = 'table'"])
        let tables = Set(tableList.split(separator: "\n").map(String.init))
        let partialImages: String
        if tables.contains("image_piece") {
            partialImages = """
                SELECT 'partial=' || count(*) FROM image LEFT JOIN (
                    SELECT url, SUM(length(bytes)) AS total, COUNT(*) AS pieces, MAX(seq) AS last FROM image_piece GROUP BY url
                ) AS stored USING (url)
                    WHERE stored.total IS NULL OR stored.total != image.size OR stored.pieces != stored.last + 1 OR image.size = 0;
                SELECT 'partial=' || count(*) FROM image_piece WHERE url NOT IN (SELECT url FROM image);
                """
        } else if tables.contains("image_data") {
            partialImages = """
                SELECT 'partial=' || count(*) FROM image LEFT JOIN image_data USING (url)
                    WHERE image_data.bytes IS NULL OR length(image_data.bytes) != image.size OR image.size = 0;
                SELECT 'partial=' || count(*) FROM image_data WHERE url NOT IN (SELECT url FROM image);
                """
        } else {
            partialImages = "SELECT 'partial=' || count(*) FROM image WHERE size != length(bytes) OR length(bytes) = 0;"
        }
        let sql = """
            PRAGMA integrity_check;
            \(partialImages)
            SELECT 'partial=' || count(*) FROM feed WHERE json_valid(CAST(payload AS TEXT)) = 0;
            """
        let (status, output) = try await Children.run("/usr/bin/sqlite3", ["-batch", path, sql])
        var inspection = FileInspection()
        let lines = output.split(separator: "\n").map(String.init)
        inspection.intact = lines.first == "ok"
        inspection.queriesFailed = status != 0
        inspection.partialRows = lines.filter { $0.hasPrefix("partial=") }.compactMap { Int($0.dropFirst(8)) }.reduce(0, +)
        if !inspection.intact || inspection.partialRows > 0 || inspection.queriesFailed {
            Report.progress("crash: cache file check: status \(status): \(output.prefix(500))")
        }
        return inspection
    }
}
