import FoundationEssentials
import LigasProtocol
import Synchronization

/// The Swift client library for ligasd: an async API over one multiplexed connection.
///
///     let client = try await LigasClient.connect()
///     let teams = try await client.teams(league: "serie-a")
///     for try await chunk in try await client.image(.team("emelec")) { … }
///
/// Cancelling the calling task cancels the request on the daemon too.
public final class LigasClient: Sendable {
    private let connection: ClientConnection
    /// Answers seen lately, decoded: the same bytes again are not decoded again.
    let decodedAnswers = DecodedAnswers()
    public let session: NegotiatedSession
    /// Sent with every request: past it the daemon answers `deadlineExceeded`.
    public let requestDeadline: Duration?

    private init(connection: ClientConnection, session: NegotiatedSession, requestDeadline: Duration?) {
        self.connection = connection
        self.session = session
        self.requestDeadline = requestDeadline
    }

    /// Connects and performs the hello exchange. The hello announces
    /// `ProtocolLimits.defaultClientMaxFrameSize` (16 MiB): the daemon can only deliver an answer
    /// that fits one frame of that size, and answers `resultTooLarge` for a larger one.
    public static func connect(
        socketPath: String = SocketLocation.default(), agent: String = "ligas-client/\(ReleaseVersion.current)",
        requestDeadline: Duration? = nil
    ) async throws -> LigasClient {
        try await connect(socketPath: socketPath, agent: agent, requestDeadline: requestDeadline) { ClientConnection(socket: $0) }
    }

    /// For tests: the connection made their way (its answer-here budget, its count of callers).
    static func connect(
        socketPath: String, agent: String, requestDeadline: Duration?, connection make: (ClientSocket) -> ClientConnection
    ) async throws -> LigasClient {
        let connection = make(try await ClientSocket.connect(path: socketPath))
        do {
            let session = try await connection.start(hello: Hello(agent: agent))
            return LigasClient(connection: connection, session: session, requestDeadline: requestDeadline)
        } catch {
            connection.close()
            throw error
        }
    }

    private func request(_ call: Call, cache: CachePolicy) -> Request {
        // Whole milliseconds, rounded toward zero, within what the field holds.
        Request(call, deadlineMs: requestDeadline.map { UInt32(min(max($0 / .milliseconds(1), 0), Double(UInt32.max))) }, cache: cache)
    }

    /// Closes the connection: calls in flight fail with `connectionClosed`. (It also closes by
    /// itself once neither the client nor a download of it is referenced any more.)
    public func close() {
        connection.close()
    }

    /// The connection's flow-control counters (buffered stream bytes, their peak, pauses).
    var flowStatistics: ClientConnection.FlowStatistics { connection.flowStatistics() }

    public func ping() async throws {
        _ = try await call(Methods.Ping.self, NoArguments())
    }

    public func leagues(cache: CachePolicy = .default) async throws -> LeaguesResult {
        try await call(Methods.Leagues.self, NoArguments(), cache: cache)
    }

    public func teams(league: String, cache: CachePolicy = .default) async throws -> TeamsResult {
        try await call(Methods.Teams.self, TeamsArguments(league: league), cache: cache)
    }

    public func players(team: String, cache: CachePolicy = .default) async throws -> PlayersResult {
        try await call(Methods.Players.self, PlayersArguments(team: team), cache: cache)
    }

    public func matches(league: String, team: String? = nil, cache: CachePolicy = .default) async throws -> MatchesResult {
        try await call(Methods.Matches.self, MatchesArguments(league: league, team: team), cache: cache)
    }

    public func standings(league: String, cache: CachePolicy = .default) async throws -> StandingsResult {
        try await call(Methods.Standings.self, StandingsArguments(league: league), cache: cache)
    }

    public func status() async throws -> DaemonStatus {
        try await call(Methods.Status.self, NoArguments())
    }

    public func describe() async throws -> InterfaceDescription {
        try await call(Methods.Describe.self, NoArguments())
    }

    /// Streams an image: the header first, then chunks as they arrive. The stream throws
    /// `ClientError.integrityCheckFailed` if the bytes do not match the daemon's SHA-256.
    public func image(_ which: ImageArguments, cache: CachePolicy = .default) async throws -> ImageDownload {
        let (id, opened) = try await connection.stream(request(Call(Methods.Image.self, which), cache: cache))
        return ImageDownload(header: opened.header, chunks: opened.chunks) { [connection] in connection.cancel(id) }
    }

    /// Calls any method of the table and decodes its result as the table says.
    public func call<M: RPCMethod>(_ method: M.Type, _ arguments: M.Arguments, cache: CachePolicy = .default) async throws -> M.Result {
        let payload = try await connection.call(request(Call(method, arguments), cache: cache))
        do {
            return try decodedAnswers.value(of: payload, answering: M.self)
        } catch {
            throw ClientError.protocolViolation("undecodable \(M.name) response: \(error)")
        }
    }
}

/// An image arriving from the daemon: its header, and its bytes as an async sequence.
/// Abandoning the iteration (or cancelling its task) sends `cancel` to the daemon, and so does
/// dropping the download without ever iterating it (having read only its header, say).
///
/// Chunks the consumer has not taken yet wait in the client, up to a bound (about 1 MiB per
/// connection, see `ClientConnection`): past it the client stops reading the socket, and the
/// daemon, finding it full, pauses the stream. A slow consumer slows the download down.
public struct ImageDownload: AsyncSequence, Sendable {
    public typealias Element = Data
    public let header: StreamHeader
    let chunks: StreamReceiver
    let cancel: @Sendable () -> Void
    private let neverIterated: CancelIfNeverIterated

    init(header: StreamHeader, chunks: StreamReceiver, cancel: @escaping @Sendable () -> Void) {
        self.header = header
        self.chunks = chunks
        self.cancel = cancel
        neverIterated = CancelIfNeverIterated(cancel, receiver: chunks)
    }

    public func makeAsyncIterator() -> Iterator {
        neverIterated.iterated()  // the iterator's own `CancelOnDeinit` takes over
        return Iterator(chunks: chunks, cancel: CancelOnDeinit(cancel, receiver: chunks))
    }

    public struct Iterator: AsyncIteratorProtocol {
        let chunks: StreamReceiver
        let cancel: CancelOnDeinit

        public mutating func next() async throws -> Data? {
            do {
                let chunk = try await chunks.next()
                if Task.isCancelled {
                    cancel.fire()  // the specs' cancel course: tell the daemon, deliver nothing more
                    return nil
                }
                if chunk == nil { cancel.disarm() }
                return chunk
            } catch {
                cancel.disarm()
                throw error
            }
        }
    }
}

/// Sends the cancel when an unfinished iteration is dropped, and in any case releases what the
/// dropped iteration left buffered, so the connection's flow control does not wait for it.
final class CancelOnDeinit: @unchecked Sendable {
    private var action: (@Sendable () -> Void)?
    private let receiver: StreamReceiver

    init(_ action: @escaping @Sendable () -> Void, receiver: StreamReceiver) {
        self.action = action
        self.receiver = receiver
    }

    func fire() {
        action?()
        action = nil
        receiver.abandon()
    }

    func disarm() { action = nil }

    deinit {
        action?()
        receiver.abandon()
    }
}

/// Sends the cancel when a download is dropped (every copy of it) before anyone iterated it:
/// otherwise the daemon would go on streaming to a connection that buffers the chunks for no one,
/// and the request would stay in flight until the connection closes.
final class CancelIfNeverIterated: Sendable {
    private let action: Mutex<(@Sendable () -> Void)?>
    private let receiver: StreamReceiver

    init(_ action: @escaping @Sendable () -> Void, receiver: StreamReceiver) {
        self.action = Mutex(action)
        self.receiver = receiver
    }

    func iterated() { action.withLock { $0 = nil } }

    deinit {
        guard let action = action.withLock({ $0 }) else { return }
        action()
        receiver.abandon()
    }
}
