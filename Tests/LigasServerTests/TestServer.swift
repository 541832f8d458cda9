import Crypto
import Foundation
import LigasProtocol
import LigasServer
import LigasTestSupport
import Logging
import Synchronization

/// A real `Server` on a real Unix socket in a temporary directory, with a handler the test scripts.
final class TestServer: Sendable {
    let directory = TemporaryDirectory()
    let server: Server
    /// Every request log entry the server wrote.
    let log = RecordingRequestLog()
    var path: String { directory.url.appendingPathComponent("ligasd.sock").path }

    init(
        limits: ServerLimits = ServerLimits(), handler: any RequestHandler = ScriptedHandler(),
        logger: Logger = Logger(label: "test"), whenLastClosed: (@Sendable () -> Void)? = nil
    ) throws {
        let path = directory.url.appendingPathComponent("ligasd.sock").path
        server = Server(
            listener: try ListeningSocket.bind(path: path), limits: limits, handler: handler, logger: logger,
            requestLog: log)
        server.start(whenLastClosed: whenLastClosed)
    }

    func stop() async {
        await server.shutdown(grace: .seconds(1))
    }

    static func run(
        limits: ServerLimits = ServerLimits(), handler: any RequestHandler = ScriptedHandler(),
        logger: Logger = Logger(label: "test"), _ body: (TestServer) async throws -> Void
    ) async throws {
        let server = try TestServer(limits: limits, handler: handler, logger: logger)
        let outcome = await asyncResult { try await body(server) }
        await server.stop()
        try outcome.get()
    }

    /// Waits (bounded) until the server's counters satisfy `condition`.
    func waitFor(_ what: String, _ condition: (ServerStatistics) -> Bool) async throws {
        try await poll(what, every: .milliseconds(5)) { condition(server.statistics()) ? () : nil }
    }
}

/// Keeps the request log's entries, for tests to read.
final class RecordingRequestLog: RequestLog, Sendable {
    private let entries = Mutex<[RequestLogEntry]>([])
    func write(_ entry: RequestLogEntry) { entries.withLock { $0.append(entry) } }
    /// The entries so far, as `(request id, error code)`, in the order written.
    var written: [(requestID: UInt32, errorCode: ErrorCode?)] { entries.withLock { $0.map { ($0.requestID, $0.errorCode) } } }
    /// The stream summaries of request `requestID`'s entries, in the order written.
    func streams(of requestID: UInt32) -> [RequestLogEntry.StreamSummary] {
        entries.withLock { $0.filter { $0.requestID == requestID }.compactMap(\.stream) }
    }
    /// The stream summary of request `requestID`'s entry, once it is written.
    func stream(of requestID: UInt32) -> RequestLogEntry.StreamSummary? {
        entries.withLock { $0.first { $0.requestID == requestID }?.stream }
    }
}

/// Answers `ping`, `status` and `describe` at once, `teams` with the league name echoed back after an
/// optional gate, and `image` with a generated stream of `imageBytes` bytes that records how far it
/// was read. Some leagues are special: "ready" is answered at once (like a cache hit in memory),
/// "huge" answers `hugeTeamCount` teams (over 2 MiB encoded), and "hold" is answered at once but
/// first blocks the thread it runs on, the event loop's (every connection waits), until `held`
/// is released. So are some teams' images: "ready" is a stream ready in memory (like a small
/// cached image), "slow" waits for `gate` before its header, and "late" sends its header at once
/// and its first chunk once `gate` opens. `handled` counts the requests that went
/// to `handle` (in a task) rather than being answered at once.
final class ScriptedHandler: RequestHandler, Sendable {
    let gate = Gate()
    let held = HeldThread()
    static let hugeTeamCount = 2500
    let imageBytes: Int
    let produced = Counter()
    let handled = Counter()
    let streamTerminated = Gate()

    init(imageBytes: Int = 1 << 20) {
        self.imageBytes = imageBytes
    }

    func answerNow(_ request: Request, context: RequestContext) -> HandlerOutcome? {
        router.answerNow(request, context: context)
    }

    func handle(_ request: Request, context: RequestContext) async -> HandlerOutcome {
        handled.add(1)
        return await router.handle(request, context: context)
    }

    /// The script, as a table of routes: the same dispatch the daemon uses.
    private var router: MethodRouter {
        var router = MethodRouter { error in (error as? ErrorBody) ?? ErrorBody(code: .internal, message: "\(error)") }
        router.onNow(Methods.Ping.self) { _, _, _ in Answer(PingResult()) }
        router.on(Methods.Teams.self, now: { [held] arguments, _, _ in
            if arguments.league == "hold" { held.hold() }
            return arguments.league == "ready" || arguments.league == "hold" ? Self.echo(arguments.league) : nil
        }) { [gate] arguments, _, _ in
            if arguments.league == "slow" { await gate.wait() }
            if arguments.league == "huge" { return Answer(Sourced(source: .cache, value: Self.hugeTeams), source: .cache) }
            return Self.echo(arguments.league)
        }
        router.onNow(Methods.Status.self) { _, _, context in
            let counters = context.statistics()
            return Answer(DaemonStatus(
                version: "test", uptimeSeconds: 0, openConnections: UInt64(counters.openConnections),
                inFlightRequests: UInt64(max(0, counters.inFlightRequests)), requestsServed: counters.requestsServed,
                cacheHits: 0, cacheMisses: 0, remoteFailures: 0))
        }
        router.onNow(Methods.Describe.self) { _, _, _ in Answer(.ligas) }
        let header = StreamHeader(contentType: "image/png", totalSize: UInt64(imageBytes), source: .cache)
        router.onStream(Methods.Image.self, now: { [imageBytes] arguments, _, _ in
            guard arguments == .team("ready") else { return nil }
            let bytes = GeneratedBytes.expected(imageBytes)
            return ReadyStream(header: header, bytes: bytes, sha256: Data(SHA256.hash(data: bytes)))
        }) { [imageBytes, produced, streamTerminated, gate] arguments, _, _ in
            if arguments == .team("slow") { await gate.wait() }
            return OutgoingStream(
                header: header,
                chunks: GeneratedBytes(
                    total: imageBytes, produced: produced, terminated: streamTerminated,
                    firstChunkGate: arguments == .team("late") ? gate : nil))
        }
        return router
    }
}

extension ScriptedHandler {
    /// One team named after the league asked for.
    static func echo(_ league: String) -> Answer<TeamsResult> {
        let team = LigasProtocol.Team(id: league, name: league, logoURL: URL(string: "https://x.test/a.png")!, dataSource: "test")
        return Answer(Sourced(source: .cache, value: [team]), source: .cache)
    }

    /// About 2.5 MB of teams once encoded: more than the server's own 1 MiB frame limit.
    static let hugeTeams = (0..<hugeTeamCount).map { index in
        LigasProtocol.Team(
            id: "team-\(index)", name: String(repeating: "n", count: 1000),
            logoURL: URL(string: "https://x.test/\(index).png")!, dataSource: "test")
    }
}

/// Blocks the thread that calls `hold()` (not a task: the thread itself) until `release()`, and
/// tells the test once it is held.
final class HeldThread: Sendable {
    let entered = Gate()
    private let semaphore = DispatchSemaphore(value: 0)

    func hold() {
        entered.open()
        semaphore.wait()
    }

    func release() {
        semaphore.signal()
    }
}

/// Deterministic bytes in 100 KiB chunks, pulled on demand; counts what was pulled and notes
/// when its consumer went away before the end.
struct GeneratedBytes: AsyncSequence, Sendable {
    typealias Element = Data
    let total: Int
    let produced: Counter
    let terminated: Gate
    /// Opened before the first chunk comes, if any.
    var firstChunkGate: Gate?

    static func byte(at offset: Int) -> UInt8 { UInt8(truncatingIfNeeded: offset &* 31 &+ 7) }

    static func expected(_ total: Int) -> Data {
        var data = Data(count: total)
        data.withUnsafeMutableBytes { (bytes: UnsafeMutableRawBufferPointer) in
            for offset in 0..<total { bytes[offset] = byte(at: offset) }
        }
        return data
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(total: total, produced: produced, terminated: terminated, firstChunkGate: firstChunkGate)
    }

    final class Iterator: AsyncIteratorProtocol {
        let total: Int
        let produced: Counter
        let terminated: Gate
        let firstChunkGate: Gate?
        var offset = 0

        init(total: Int, produced: Counter, terminated: Gate, firstChunkGate: Gate?) {
            self.total = total
            self.produced = produced
            self.terminated = terminated
            self.firstChunkGate = firstChunkGate
        }

        func next() async throws -> Data? {
            guard offset < total else { return nil }
            if offset == 0, let firstChunkGate { await firstChunkGate.wait() }
            let end = Swift.min(offset + 100 << 10, total)
            let chunk = Data((offset..<end).map(GeneratedBytes.byte(at:)))
            offset = end
            produced.add(chunk.count)
            return chunk
        }

        deinit {
            if offset < total { terminated.open() }
        }
    }
}
