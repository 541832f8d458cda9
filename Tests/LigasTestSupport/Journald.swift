import Foundation

/// A journald for the tests and the bench. Uses the one already running; otherwise starts a
/// standalone `systemd-journald` (systemd is not PID 1 here, but journald runs on its own, see
/// /work/shared/notes/systemd-in-tests.md) for as long as some test holds it, and stops that one,
/// by its pid, when the last holder is done.
///
/// "Running" means the socket accepts a connection, not merely that the file exists: a journald that
/// was stopped leaves its socket files behind. So after stopping ours, the socket files it created
/// are removed again, leaving /run/systemd/journal as it was found. The entries it stored stay in
/// /run/log/journal (volatile), for looking at after a failed run.
///
/// One instance serves every test target of the test process (the unit tests of LigasSystemd and
/// the end-to-end tests of ligasd), so tests in different targets that run at the same time share
/// one journald, and a test that needs journald *gone* (`withStaleSocket`) waits until no test holds
/// it, while tests that need it wait for that one to finish.
public actor Journald {
    public static let shared = Journald()
    /// Starting and stopping journald waits in `usleep` loops: on a thread of its own (`offThePool`).
    private nonisolated let executor = BlockingQueueExecutor(label: "ligas-test-journald")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    public static let socketDirectory = "/run/systemd/journal"
    /// Where `sd_journal_sendv` sends entries (libsystemd's fixed path).
    public static let socketPath = "/run/systemd/journal/socket"
    static let executable = "/lib/systemd/systemd-journald"

    private var holders = 0
    private var staleSocketHeld = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// `entriesBefore` nil: /run/systemd/journal was not there; `madeRunSystemd`: nor /run/systemd.
    private var started: (process: SpawnedProcess, entriesBefore: Set<String>?, madeRunSystemd: Bool)?

    /// Runs `body` with a journald accepting entries.
    public static func withRunning<T>(_ body: () async throws -> T) async throws -> T {
        try await shared.acquire()
        let result = await asyncResult(body)
        await shared.release()
        return try result.get()
    }

    private func acquire() async throws {
        while staleSocketHeld { await waitForTurn() }
        holders += 1
        guard started == nil, !Self.isAcceptingEntries() else { return }
        do {
            try startStandalone()
        } catch {
            release()
            throw error
        }
    }

    private func startStandalone() throws {
        // nil: the directory itself was not there.
        let before = (try? FileManager.default.contentsOfDirectory(atPath: Self.socketDirectory)).map(Set.init)
        let madeRunSystemd = !FileManager.default.fileExists(atPath: "/run/systemd")
        try FileManager.default.createDirectory(atPath: Self.socketDirectory, withIntermediateDirectories: true)
        // Not systemd's variables of this process (a bench or a harness run under systemd):
        // journald would take them for its own.
        let process = try Spawn.start(Self.executable, [], environment: ChildEnvironment.inherited())
        started = (process, before, madeRunSystemd)
        // Bounded: journald binds its socket within a second here.
        let deadline = ContinuousClock.now + .seconds(10)
        while !Self.isAcceptingEntries() {
            guard !process.hasExited, ContinuousClock.now < deadline else {
                stopStandalone()
                throw TimedOut(description: "systemd-journald did not open \(Self.socketPath)")
            }
            usleep(20_000)
        }
    }

    private func release() {
        holders -= 1
        if holders == 0 {
            stopStandalone()
            wakeWaiters()
        }
    }

    private func waitForTurn() async {
        await withCheckedContinuation { waiting.append($0) }
    }

    private func wakeWaiters() {
        let waiters = waiting
        waiting = []
        waiters.forEach { $0.resume() }
    }

    private func stopStandalone() {
        guard let (process, entriesBefore, madeRunSystemd) = started else { return }
        started = nil
        if !process.hasExited { kill(process.pid, SIGTERM) }
        let deadline = ContinuousClock.now + .seconds(10)
        while !process.hasExited && ContinuousClock.now < deadline { usleep(20_000) }
        if !process.hasExited { kill(process.pid, SIGKILL) }
        removeLeftovers(keeping: entriesBefore, madeRunSystemd: madeRunSystemd)
    }

    /// Puts /run/systemd/journal back as it was found, so the next test (or `LogTarget.auto`) does not
    /// take stale sockets for a journal. Not if another journald has taken over meanwhile.
    private func removeLeftovers(keeping entriesBefore: Set<String>?, madeRunSystemd: Bool) {
        guard !Self.isAcceptingEntries() else { return }
        guard let entriesBefore else {
            try? FileManager.default.removeItem(atPath: Self.socketDirectory)
            if madeRunSystemd { rmdir("/run/systemd") }  // only if nothing else is in it now
            return
        }
        let now = Set((try? FileManager.default.contentsOfDirectory(atPath: Self.socketDirectory)) ?? [])
        for leftover in now.subtracting(entriesBefore) {
            try? FileManager.default.removeItem(atPath: Self.socketDirectory + "/" + leftover)
        }
    }

    /// Runs `body` while journald's socket exists but nobody is bound to it, as after journald
    /// stopped, then puts things back. Waits until no test holds a journald (`withRunning`), and
    /// holds off those until `body` is done; throws if a journald this process did not start runs.
    public static func withStaleSocket<T>(_ body: () throws -> T) async throws -> T {
        try await shared.acquireStaleSocket()
        let result = Result { try makingSocketStale(body) }
        await shared.releaseStaleSocket()
        return try result.get()
    }

    private func acquireStaleSocket() async throws {
        while staleSocketHeld || holders > 0 { await waitForTurn() }
        guard !Self.isAcceptingEntries() else { throw TimedOut(description: "a journald is running; cannot make its socket stale") }
        staleSocketHeld = true
    }

    private func releaseStaleSocket() {
        staleSocketHeld = false
        wakeWaiters()
    }

    private static func makingSocketStale<T>(_ body: () throws -> T) throws -> T {
        let fileManager = FileManager.default
        let directoryExisted = fileManager.fileExists(atPath: socketDirectory)
        let socketExisted = fileManager.fileExists(atPath: socketPath)
        try fileManager.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
        if !socketExisted {
            try UnixSocket.datagram().bind(to: socketPath)  // closed at once: stale
        }
        defer {
            if !isAcceptingEntries() {
                if !socketExisted { try? fileManager.removeItem(atPath: socketPath) }
                if !directoryExisted { try? fileManager.removeItem(atPath: socketDirectory) }
            }
        }
        return try body()
    }

    /// journald's socket is a datagram socket: connect(2) succeeds only while someone is bound to it.
    public static func isAcceptingEntries() -> Bool {
        guard let probe = try? UnixSocket.datagram() else { return false }
        return (try? probe.connect(to: socketPath)) != nil
    }
}

/// One journal entry as `journalctl -o json` prints it: each field's value(s) as text. (A field
/// that is not printable UTF-8 comes as an array of byte values, and a field set twice as an array
/// of values; both are decoded here.)
public struct JournalRecord: Sendable {
    public let fields: [String: [String]]

    public init(fields: [String: [String]]) { self.fields = fields }

    public subscript(field: String) -> String? { fields[field]?.first }
}

public enum Journalctl {
    /// The entries logged under `identifier`, once there are at least `count` of them (polled for
    /// up to 10 s: journald stores entries asynchronously).
    ///
    /// Plain `journalctl` finds them: a standalone journald stores into /run/log/journal/<machine-id>
    /// (volatile; /var/log/journal is empty here), which journalctl reads by default, as root, without
    /// `--directory` or `-m`. `--all` keeps long and unprintable values instead of eliding them.
    public static func entries(identifier: String, atLeast count: Int = 1) async throws -> [JournalRecord] {
        try await entries(matching: ["SYSLOG_IDENTIFIER=\(identifier)"], atLeast: count)
    }

    /// The entries matching every `FIELD=value` in `matches`, once `isComplete` says they are all
    /// there (polled for up to `timeout`).
    public static func entries(
        matching matches: [String], timeout: Duration = .seconds(10), until isComplete: ([JournalRecord]) -> Bool
    ) async throws -> [JournalRecord] {
        try await poll("journal entries matching \(matches)", timeout: timeout) {
            let records = try await read(matching: matches)
            return isComplete(records) ? records : nil
        }
    }

    public static func entries(matching matches: [String], atLeast count: Int = 1) async throws -> [JournalRecord] {
        try await entries(matching: matches) { $0.count >= count }
    }

    /// What `journalctl -o json` finds now (through a file: read once journalctl has exited, it
    /// needs no reader while it runs).
    public static func read(matching matches: [String]) async throws -> [JournalRecord] {
        let directory = TemporaryDirectory()
        let output = directory.url.appendingPathComponent("journal.json")
        _ = try await Spawn.start(
            "/usr/bin/journalctl", ["-o", "json", "--all", "--no-pager", "-q"] + matches, environment: ChildEnvironment.inherited(),
            output: output, errors: directory.url.appendingPathComponent("journalctl.err")
        ).waitForExit()
        let data = try Data(contentsOf: output)
        return try data.split(separator: UInt8(ascii: "\n")).map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] ?? [:]
            return JournalRecord(fields: object.compactMapValues(values))
        }
    }

    private static func values(_ json: Any) -> [String]? {
        switch json {
        case let string as String: return [string]
        case let bytes as [Int]: return [String(decoding: bytes.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)]
        case let many as [Any]: return many.compactMap { values($0)?.first }
        default: return nil
        }
    }
}
