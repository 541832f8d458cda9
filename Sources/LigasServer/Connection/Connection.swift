import Dispatch
import FoundationEssentials
import Glibc
import LigasProtocol
import Logging

/// One client connection, driven by the server's event loop (`EventLoop`): told when its socket
/// has input, and when it can take output again after it was full.
///
/// Confinement, not locks: every mutable property is read and written only on the loop's queue
/// (the methods that change state check it with `dispatchPrecondition`). An answer ready now is
/// sent from the read handler (a ready stream, chunk by chunk from the queue: see
/// `sendReadyStream`); other requests run as Swift tasks on the global executor (so that
/// their synchronous work, decoding a feed, writing the cache, never holds up the loop), and
/// whatever they produce hops to the loop's queue before it touches the connection (a ready
/// stream a task answers with is handed to the queue whole).
/// Writability is watched only while output is pending.
///
/// Every request read ends with exactly one final frame (PROTOCOL.md §6) unless the connection
/// closes first: answers that cannot be encoded become errors, and neither a half-closing client
/// nor a stopping daemon drops requests it has already read.
final class Connection: @unchecked Sendable {
    /// Where the connection is in its life. Whether the handshake is done is `session != nil`.
    private enum State {
        /// Reading frames and taking requests (before `session`: waiting for the client's hello).
        case open
        /// The daemon is stopping: requests still arriving get `shuttingDown`; closes once
        /// nothing is in flight.
        case stopping
        /// The client shut down its sending side: nothing more to read; closes once every
        /// request in flight has its final frame.
        case peerDoneSending
        /// Flushing what is queued (a final frame), then closing; nothing more is read or answered.
        case closing
        case closed

        var isReading: Bool { self == .open || self == .stopping }
        var sendsAnswers: Bool { self == .open || self == .stopping || self == .peerDoneSending }
    }

    let id: UInt64
    let fd: Int32
    let peer: PeerCredentials?
    let queue: DispatchQueue
    private let loop: EventLoop
    /// The connection's registration in the loop, once started.
    private var token: UInt64?
    private var watchingWritable = false

    private let limits: ServerLimits
    private let handler: any RequestHandler
    private let events: ConnectionEvents
    private var logger: Logger
    private let logTags: ServerLogTags
    private let requestLog: any RequestLog

    private var handshakeTimer: (any DispatchSourceTimer)?
    private var idleTimer: (any DispatchSourceTimer)?
    /// When the client last sent a frame. The idle timer is made once and, when it fires early,
    /// rescheduled from this: re-arming a timer on every frame costs a system call per request.
    private var lastActivity = DispatchTime.now()
    private var closeTimer: (any DispatchSourceTimer)?
    /// Whether `closeTimer` stays where it is while the client reads (after the shutdown grace).
    private var closeTimerIsFixed = false
    /// epoll reported the end of the client's input (see `EventLoop.Handlers`).
    private var peerInputEnded = false

    private var decoder: FrameDecoder
    private var encoder: FrameEncoder
    private var output = OutputQueue()
    private var session: NegotiatedSession?
    private var inFlight: [UInt32: InFlight] = [:]
    private var decodedRequests = DecodedRequests()
    /// A request in flight: a task, or a stream the queue sends itself (`sendReadyStream`), known
    /// by a token of its own: its id may be in flight again for another request once it is
    /// cancelled (a client that breaks PROTOCOL.md §6), and neither a stream nor a task that hands
    /// one over may send under it.
    private enum InFlight {
        case task(Task<Void, Never>, token: UInt64)
        case readyStream(token: UInt64)

        var token: UInt64 {
            switch self {
            case .task(_, let token), .readyStream(let token): token
            }
        }

        /// A ready stream stops by itself at its next step, once it is no longer in flight.
        func cancel() {
            if case .task(let task, _) = self { task.cancel() }
        }
    }
    private var requestTokens: UInt64 = 0
    /// Streams waiting for the client to read (see `sendStreamFrame`); told whether to go on.
    private var roomWaiters: [(requestID: UInt32, resume: (Bool) -> Void)] = []
    private var state = State.open
    /// Whether the socket's send buffer was made room for stream chunks (`widenSendBuffer`).
    private var sendBufferWidened = false

    /// `peer`: the client's credentials, read by the server when it accepted the socket.
    init(
        id: UInt64, fd: Int32, peer: PeerCredentials?, limits: ServerLimits, handler: any RequestHandler,
        events: ConnectionEvents, logger: Logger, logTags: ServerLogTags = ServerLogTags(),
        requestLog: (any RequestLog)? = nil, loop: EventLoop
    ) {
        self.logTags = logTags
        self.requestLog = requestLog ?? LoggerRequestLog(logger: logger, tags: logTags)
        self.id = id
        self.fd = fd
        self.peer = peer
        self.limits = limits
        self.handler = handler
        self.events = events
        self.loop = loop
        self.queue = loop.queue
        self.decoder = FrameDecoder(maxFrameSize: limits.maxFrameSize)
        self.encoder = FrameEncoder(maxFrameSize: ProtocolLimits.minimumMaxFrameSize)
        var logger = logger
        logger[metadataKey: "connection"] = "\(id)"
        if let peer {
            logger[metadataKey: "client-pid"] = "\(peer.pid)"
            logger[metadataKey: "client-uid"] = "\(peer.uid)"
        }
        self.logger = logger
    }

    // MARK: - Lifecycle

    func start() {
        loop.execute { [self] in
            token = loop.register(fd, EventLoop.Handlers(readable: { [self] in readAvailable(inputEnded: $0) }, writable: { [self] in flush() }))
            handshakeTimer = timer(after: limits.handshakeTimeout) { [unowned self] in
                refuse(ErrorBody(code: .deadlineExceeded, message: "no hello within the handshake timeout"))
            }
        }
    }

    /// Stop taking new requests (daemon shutting down); in-flight ones finish normally.
    ///
    /// Requests the client has already sent are read and answered `shuttingDown` first, even on
    /// an idle connection: the client can then tell a request to retry from one that was lost.
    func refuseNewRequests() {
        loop.execute { [self] in
            guard state == .open else { return }
            state = .stopping
            readAvailable()
            finishIfDone()
        }
    }

    /// Close now, whatever is in flight (end of the shutdown grace period). Each request still in
    /// flight is first answered `cutOff`, so that its client can tell a request cut off from a
    /// connection lost. The frames go out after what is already queued (a stream's chunks, up to
    /// its high-water mark), and the socket has `limits.cutOffDeliveryLimit` more to take them: a
    /// client that reads gets them, one that does not read does not hold the stop any longer.
    func forceClose(grace: Duration) {
        loop.execute { [self] in
            guard state.sendsAnswers else { return teardown(reason: "shutdown") }
            // Streams waiting for room stop first, and nothing more is sent once the cutOffs are
            // queued (`closing` sends no answers): a stream's end after its cutOff would give
            // the request two final frames.
            resumeRoomWaiters(with: false)
            let cutOff = ErrorBody.cutOff(grace: grace)
            for requestID in inFlight.keys.sorted() {
                var bytes: [UInt8] = []
                // Cannot fail: a short message, and no client accepts less than 4096 bytes.
                try? encoder.appendError(id: requestID, cutOff, to: &bytes)
                output.append(bytes)
            }
            state = .closing
            closeTimer = timer(after: limits.cutOffDeliveryLimit) { [unowned self] in teardown(reason: "shutdown: client not reading") }
            closeTimerIsFixed = true
            flush()
        }
    }

    private func teardown(reason: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard state != .closed else { return }
        state = .closed
        handshakeTimer?.cancel()
        idleTimer?.cancel()
        closeTimer?.cancel()
        let cancelled = inFlight.count
        for request in inFlight.values { request.cancel() }
        inFlight.removeAll()
        resumeRoomWaiters(with: false)
        // Out of the loop's set first, then closed: never a number closed while still watched.
        if let token { loop.unregister(token) }
        Glibc.close(fd)
        logger.debug("connection closed", metadata: ["reason": "\(reason)"])
        events.closed(self, cancelled)
    }

    /// Sends what is queued (a final error frame, or the last answers), then closes.
    private func closeWhenFlushed() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard state != .closing, state != .closed else { return }
        state = .closing
        // A client that stops reading must not keep the connection open forever (flush pushes
        // this back while the client still reads, so a large last answer is not cut short).
        closeTimer = timer(after: Self.closeTimeout) { [unowned self] in teardown(reason: "peer not reading at close") }
        flush()
    }

    private static let closeTimeout: Duration = .seconds(2)

    /// A stopping or half-closed connection closes once nothing is left in flight.
    private func finishIfDone() {
        guard state == .stopping || state == .peerDoneSending, inFlight.isEmpty else { return }
        closeWhenFlushed()
    }

    /// A connection-level refusal: a named error with request id 0, then close. Nothing more is
    /// sent for the requests in flight; they are cancelled with the connection. Logged as a
    /// client breaking the protocol unless `protocolError` is false (an idle client broke nothing).
    private func refuse(_ error: ErrorBody, protocolError: Bool = true) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard state != .closing, state != .closed else { return }
        let message = LoggedText.cut(error.message)
        var metadata: Logger.Metadata = ["error-code": "\(error.code)", "error": "\(message)"]
        if protocolError {
            metadata.tag(logTags.clientProtocolError)
            logger.notice("client protocol error", metadata: metadata)
        } else {
            logger.debug("\(message)", metadata: metadata)
        }
        enqueue { try encoder.appendError(id: 0, error, to: &$0) }
        closeWhenFlushed()
    }

    // MARK: - Reading

    private func readAvailable(inputEnded: Bool = false) {
        dispatchPrecondition(condition: .onQueue(queue))
        if inputEnded { peerInputEnded = true }
        guard state.isReading else { return }
        var reads = 0
        withUnsafeTemporaryAllocation(byteCount: 64 << 10, alignment: 16) { buffer in
            while state.isReading, reads < 16 {
                let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
                if count > 0 {
                    reads += 1
                    decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                    processFrames()
                    // A short read took all there was: asking again would only say EAGAIN, and
                    // the loop tells of anything that comes after it. Unless the peer's end of
                    // input came with these bytes: epoll told of it once, and only the read that
                    // returns 0 makes it known here (PROTOCOL.md §6, a half-closing client).
                    if count < buffer.count, !peerInputEnded { return }
                } else if count == 0 {
                    peerFinishedSending()
                } else if errno == EINTR {
                    continue
                } else if errno == EAGAIN || errno == EWOULDBLOCK {
                    return
                } else {
                    teardown(reason: "read failed: errno \(errno)")
                }
            }
            // Stopped after 16 reads with bytes perhaps left: the loop is told of new bytes only,
            // so ask for another turn, after the other connections that are ready.
            if reads == 16, state.isReading, let token { loop.readAgain(token) }
        }
    }

    /// End of input. A client that only shut down its sending side (socat does, after its last
    /// request) still reads: it gets every answer in flight, then the close. One that closed
    /// its socket outright is gone, and its requests with it.
    private func peerFinishedSending() {
        guard !peerHungUp() else { return teardown(reason: "peer closed") }
        state = .peerDoneSending
        logger.debug("peer finished sending", metadata: ["in-flight": "\(inFlight.count)"])
        finishIfDone()
    }

    /// Whether the peer closed its socket entirely (the kernel reports POLLHUP only then), as
    /// opposed to `shutdown(SHUT_WR)`.
    private func peerHungUp() -> Bool {
        var status = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&status, 1, 0) == 1 else { return false }
        return status.revents & Int16(POLLHUP | POLLERR) != 0
    }

    private func processFrames() {
        do {
            while state.isReading, let frame = try decoder.nextFrame() {
                recordActivity()
                handle(frame)
            }
        } catch {
            refuse(error.errorBody)
        }
    }

    private func handle(_ frame: Frame) {
        guard let session else { return handshake(frame) }
        switch frame.kind {
        case .request:
            handleRequest(frame, session: session)
        case .cancel:
            cancel(frame.requestID)
        case .hello:
            refuse(ErrorBody(code: .badFrame, message: "hello was already exchanged"))
        case .response, .error, .streamChunk, .streamEnd:
            refuse(ErrorBody(code: .badFrame, message: "a client may not send \(frame.kind) frames"))
        }
    }

    private func handshake(_ frame: Frame) {
        guard frame.kind == .hello else {
            return refuse(ErrorBody(code: .badFrame, message: "the first frame must be hello, not \(frame.kind)"))
        }
        do throws(ErrorBody) {
            guard case .hello(let hello) = try Message(frame: frame) else { return }
            let ours = Hello(
                maxFrameSize: UInt32(limits.maxFrameSize), maxInFlight: UInt32(limits.maxInFlightPerConnection),
                chunkSize: UInt32(limits.chunkSize), agent: "ligasd/\(ReleaseVersion.current)")
            let (reply, negotiated) = try Handshake.accept(hello, server: ours)
            encoder.maxFrameSize = negotiated.peerMaxFrameSize
            enqueue { try encoder.appendHello(reply, to: &$0) }
            session = negotiated
            handshakeTimer?.cancel()
            recordActivity()
            logger.debug("handshake", metadata: ["client-agent": "\(hello.agent)"])
        } catch {
            refuse(error)
        }
    }

    // MARK: - Requests

    private func handleRequest(_ frame: Frame, session: NegotiatedSession) {
        dispatchPrecondition(condition: .onQueue(queue))
        let requestID = frame.requestID
        // Checked first: answering the reuse with its id would give that id two final frames.
        guard inFlight[requestID] == nil else {
            return refuse(.requestIDInFlight(requestID))
        }
        // Refusals come before the payload is judged (PROTOCOL.md §6 and §9): a stopping server
        // answers every request `shuttingDown`, and one past the cap gets `tooManyRequests`.
        let refusal: ErrorBody? =
            state != .open || events.stopping() ? .stopping
            : inFlight.count >= limits.maxInFlightPerConnection ? .tooManyInFlight(max: limits.maxInFlightPerConnection)
            : nil
        let request: Request
        do throws(ErrorBody) {
            request = try decodedRequests.request(from: frame.payload)
        } catch {
            var metadata: Logger.Metadata = [
                "request-id": "\(requestID)", "error-code": "\(error.code)", "error": "\(LoggedText.cut(error.message))",
            ]
            metadata.tag(logTags.clientProtocolError)
            logger.notice("client protocol error", metadata: metadata)
            events.requestAnsweredAtOnce()
            sendAtOnce(requestID) { try encoder.appendError(id: requestID, refusal ?? error, to: &$0) }
            return
        }
        let started = ContinuousClock.now
        let entry = RequestLogEntry(connectionID: id, peer: peer, requestID: requestID, request: request, durationMicroseconds: 0)
        if let refusal {
            return answerNow(requestID, .failure(refusal), entry: entry, started: started)
        }
        let context = RequestContext(
            requestID: requestID, connectionID: id, peer: peer, statistics: events.statistics)
        if request.deadlineMs == 0 {
            return answerNow(requestID, .failure(.deadlinePassed), entry: entry, started: started)
        }
        switch handler.answerNow(request, context: context) {
        case .readyStream(let ready)?:
            return sendReadyStream(ready, requestID: requestID, chunkSize: session.chunkSize, entry: entry, started: started)
        case let outcome?:
            return answerNow(requestID, outcome, entry: entry, started: started)
        case nil:
            break
        }
        requestTokens += 1
        let exchange = RequestExchange(
            connection: self, requestID: requestID, token: requestTokens, request: request, chunkSize: session.chunkSize, entry: entry)
        events.requestStarted()
        inFlight[requestID] = .task(Task { [handler, requestLog] in
            await exchange.run(handler: handler, context: context, log: requestLog)
        }, token: requestTokens)
    }

    /// Sends an answer that was ready at once, from the read handler itself: no task, no hop.
    private func answerNow(_ requestID: UInt32, _ outcome: HandlerOutcome, entry: RequestLogEntry, started: ContinuousClock.Instant) {
        dispatchPrecondition(condition: .onQueue(queue))
        var entry = entry
        // Counted before the answer leaves, so a client that reads it and then asks `status` sees it.
        events.requestAnsweredAtOnce()
        let delivery: AnswerDelivery
        switch outcome {
        case .reply(let reply, let source):
            entry.source = source
            delivery = sendAtOnce(requestID) { try encoder.appendResponse(id: requestID, reply, to: &$0) }
        case .encodedReply(let payload, let source):
            entry.source = source
            delivery = sendAtOnce(requestID) { try encoder.appendRaw(.response, requestID: requestID, bytes: payload, to: &$0) }
        case .failure(let error):
            entry.failure = .init(error)
            delivery = sendAtOnce(requestID) { try encoder.appendError(id: requestID, error, to: &$0) }
        case .stream:
            preconditionFailure("RequestHandler.answerNow returned a stream")
        case .readyStream:
            preconditionFailure("a ready stream is sent by sendReadyStream")
        }
        guard entry.record(delivery) else { return }
        entry.durationMicroseconds = (ContinuousClock.now - started).wholeMicroseconds
        requestLog.write(entry)
    }

    /// Queues the final frame of a request answered at once, judged like every answer: a client
    /// whose unread answers pass `maxOutputBytes` does not read, and is closed.
    @discardableResult
    private func sendAtOnce(_ requestID: UInt32, _ encode: (inout [UInt8]) throws -> Void) -> AnswerDelivery {
        guard output.count <= limits.maxOutputBytes else {
            teardown(reason: "client not reading: \(output.count) bytes unread")
            return .dropped
        }
        return enqueueAnswer(requestID, encode)
    }

    // MARK: - Ready streams

    /// A ready stream on its way (see `sendReadyStream`).
    private struct ReadyStreamSending {
        let requestID: UInt32
        let token: UInt64
        let ready: ReadyStream
        let chunkSize: Int
        var entry: RequestLogEntry
        let started: ContinuousClock.Instant
        /// The piece to read next, and what is left to send of the one read last.
        var nextPiece = 0
        var rest = Data()
        var progress = StreamProgress()

        init(
            _ ready: ReadyStream, requestID: UInt32, token: UInt64, chunkSize: Int, entry: RequestLogEntry,
            started: ContinuousClock.Instant
        ) {
            self.requestID = requestID
            self.token = token
            self.ready = ready
            self.chunkSize = chunkSize
            self.entry = entry
            self.entry.source = ready.header.source
            self.started = started
        }
    }

    /// Sends a stream whose bytes are ready to be read from the queue, with no task: the header and
    /// the first chunk before the read handler returns, then a piece read (when the last one is
    /// sent) and a chunk sent per turn of the loop (`EventLoop.execute`), so that what the client
    /// sent, a cancel above all, is read between two chunks. Backpressure, the end frame and the
    /// log entry as for a stream a task sends (`RequestExchange`).
    private func sendReadyStream(
        _ ready: ReadyStream, requestID: UInt32, chunkSize: Int, entry: RequestLogEntry, started: ContinuousClock.Instant
    ) {
        dispatchPrecondition(condition: .onQueue(queue))
        requestTokens += 1
        events.requestStarted()
        inFlight[requestID] = .readyStream(token: requestTokens)
        startReadyStream(ReadyStreamSending(ready, requestID: requestID, token: requestTokens, chunkSize: chunkSize, entry: entry, started: started))
    }

    /// A ready stream a request's task answered with (see `RequestExchange`): from now on the queue
    /// sends it, as it sends `answerNow`'s, and the task is done. Nothing is sent if the request
    /// is no longer that task's (cancelled meanwhile).
    func handOver(
        _ ready: ReadyStream, for requestID: UInt32, token: UInt64, chunkSize: Int, entry: RequestLogEntry, started: ContinuousClock.Instant
    ) async {
        await onQueue { [self] in
            let sending = ReadyStreamSending(ready, requestID: requestID, token: token, chunkSize: chunkSize, entry: entry, started: started)
            guard case .task(_, token)? = inFlight[requestID] else { return finishReadyStream(sending, cancelled: true) }
            inFlight[requestID] = .readyStream(token: token)
            startReadyStream(sending)
        }
    }

    private func startReadyStream(_ sending: ReadyStreamSending) {
        dispatchPrecondition(condition: .onQueue(queue))
        widenSendBuffer()
        sendWhenRoom(sending.requestID, token: sending.token, payload: nil, { [header = sending.ready.header, id = sending.requestID] encoder, out in
            try encoder.appendStreamHeader(id: id, header, to: &out)
        }) { [self] delivery in
            var sending = sending
            guard sending.progress.goesOn(after: delivery) else { return finishReadyStream(sending) }
            sendNextChunk(sending)
        }
    }

    private func sendNextChunk(_ sending: ReadyStreamSending) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard isCurrent(sending.requestID, sending.token) else { return finishReadyStream(sending, cancelled: true) }
        var sending = sending
        while sending.rest.isEmpty {
            guard sending.nextPiece < sending.ready.pieceCount else { return sendReadyStreamEnd(sending) }
            do {
                sending.rest = try sending.ready.piece(sending.nextPiece)
            } catch {
                return failReadyStream(sending, (error as? ErrorBody) ?? ErrorBody(code: .internal, message: "stream failed: \(error)"))
            }
            sending.nextPiece += 1
        }
        let chunk = sending.rest.prefix(sending.chunkSize)
        sending.rest = sending.rest.dropFirst(chunk.count)
        sendWhenRoom(sending.requestID, token: sending.token, payload: chunk, { [id = sending.requestID] encoder, out in
            try encoder.appendRawHead(.streamChunk, requestID: id, flags: [], payloadCount: chunk.count, to: &out)
        }) { [self] delivery in
            var sending = sending
            guard sending.progress.goesOn(after: delivery, chunkBytes: chunk.count) else { return finishReadyStream(sending) }
            loop.execute { [self, sending] in sendNextChunk(sending) }
        }
    }

    private func sendReadyStreamEnd(_ sending: ReadyStreamSending) {
        dispatchPrecondition(condition: .onQueue(queue))
        var sending = sending
        let end = StreamEnd(totalBytes: UInt64(sending.progress.summary.bytes), sha256: sending.ready.sha256)
        _ = sending.progress.goesOn(after: deliver(sending.requestID, token: sending.token, final: true, payload: nil) { [id = sending.requestID] encoder, out in
            try encoder.appendStreamEnd(id: id, end, to: &out)
        })
        finishReadyStream(sending)
    }

    /// A piece could not be read (the cache changed under the stream, or failed): the stream ends
    /// with that error, after the chunks already sent.
    private func failReadyStream(_ sending: ReadyStreamSending, _ error: ErrorBody) {
        dispatchPrecondition(condition: .onQueue(queue))
        var sending = sending
        if sending.progress.goesOn(after: deliver(sending.requestID, token: sending.token, final: true, payload: nil) { [id = sending.requestID] encoder, out in
            try encoder.appendError(id: id, error, to: &out)
        }) {
            sending.progress.failed(with: error)
        }
        finishReadyStream(sending)
    }

    /// Whether the request with this token is still the one in flight under its id (not
    /// cancelled or ended, and not followed by another request with the same id).
    private func isCurrent(_ requestID: UInt32, _ token: UInt64) -> Bool {
        inFlight[requestID]?.token == token
    }

    /// The stream's one log entry, however it ended.
    private func finishReadyStream(_ sending: ReadyStreamSending, cancelled: Bool = false) {
        dispatchPrecondition(condition: .onQueue(queue))
        var sending = sending
        if cancelled { _ = sending.progress.goesOn(after: .dropped) }
        var entry = sending.entry
        sending.progress.record(in: &entry)
        entry.durationMicroseconds = (ContinuousClock.now - sending.started).wholeMicroseconds
        requestLog.write(entry)
    }

    private func cancel(_ requestID: UInt32) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let request = inFlight.removeValue(forKey: requestID) else { return }
        request.cancel()
        resumeRoomWaiters(for: requestID, with: false)
        events.requestFinished()
        finishIfDone()
    }

    // MARK: - Called by request tasks (hop onto the queue)

    /// Sends the final frame of a request that is still in flight (a response, an error, or a
    /// stream's end). Anything but `.queued` means the request was cancelled, or the frame was
    /// replaced by an error (see `enqueueAnswer`), or the connection is gone.
    func sendFinal(
        _ requestID: UInt32, token: UInt64, _ encode: @escaping @Sendable (FrameEncoder, inout [UInt8]) throws -> Void
    ) async -> AnswerDelivery {
        await onQueue { [self] in deliver(requestID, token: token, final: true, payload: nil, encode) }
    }

    /// Sends a stream's header or one of its chunks once the client has read enough of what is
    /// queued (backpressure), without waiting: the ticket tells how it went. The stream reads its
    /// next chunk meanwhile, so the socket does not wait for the cache, nor the cache for the
    /// socket; it asks the ticket before it sends the next frame, so one frame per stream is on its
    /// way at a time. Anything but `.queued` (the request was cancelled or ended, or the connection
    /// is gone) means: send nothing more. `payload`, if any, goes right after the encoded bytes,
    /// from its own storage: the bytes of a chunk whose frame head `encode` wrote (they are never
    /// copied into a frame).
    ///
    /// Always handed to the loop (`EventLoop.execute`), never inline: between two chunks the loop
    /// must read what the client sent, its cancel above all.
    func sendStreamFrame(
        _ requestID: UInt32, token: UInt64, payload: Data? = nil, _ encode: @escaping @Sendable (FrameEncoder, inout [UInt8]) throws -> Void
    ) -> DeliveryTicket {
        let ticket = DeliveryTicket()
        loop.execute { [self] in
            widenSendBuffer()
            sendWhenRoom(requestID, token: token, payload: payload, encode) { ticket.resolve($0) }
        }
        return ticket
    }

    /// The first time the connection streams, its socket's send buffer is asked for two chunks,
    /// which the kernel doubles: room for four chunk frames, writable again once one is left.
    /// With the default (208 KiB) a 256 KiB chunk did not fit: each chunk took several writes
    /// and wake-ups on both sides (`perf`, and the A/B runs in Benchmarks/HISTORY.md). The kernel
    /// caps what is asked at `net.core.wmem_max` (212992 on a stock system: 416 KiB then, still
    /// twice the default), and a buffer already larger (small chunks) is left as it is. Only
    /// streaming connections get it, so a client that does not read pins at most this much kernel
    /// memory more than before, besides `maxOutputBytes` in the daemon.
    private func widenSendBuffer() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !sendBufferWidened, let session else { return }
        sendBufferWidened = true
        var current: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        var asked = Int32(clamping: 2 * session.chunkSize)
        // getsockopt reports the doubled size.
        guard getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &current, &length) == 0, Int(current) < 2 * Int(asked) else { return }
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &asked, socklen_t(MemoryLayout<Int32>.size))
    }

    private func sendWhenRoom(
        _ requestID: UInt32, token: UInt64, payload: Data?, _ encode: @escaping @Sendable (FrameEncoder, inout [UInt8]) throws -> Void,
        then done: @escaping (AnswerDelivery) -> Void
    ) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard state.sendsAnswers, isCurrent(requestID, token), output.count >= limits.streamHighWater else {
            return done(deliver(requestID, token: token, final: false, payload: payload, encode))
        }
        roomWaiters.append((requestID, { [self] room in
            // Room again, checked again: another stream of this connection may have taken it.
            room ? sendWhenRoom(requestID, token: token, payload: payload, encode, then: done) : done(.dropped)
        }))
        events.streamsPaused(1)
    }

    /// Queues a frame of the request with this token, if it is still the one in flight under its
    /// id (`isCurrent`): a request the client cancelled sends nothing more, even if the client
    /// reused its id at once (which PROTOCOL.md §6 forbids).
    private func deliver(
        _ requestID: UInt32, token: UInt64, final: Bool, payload: Data?, _ encode: (FrameEncoder, inout [UInt8]) throws -> Void
    ) -> AnswerDelivery {
        dispatchPrecondition(condition: .onQueue(queue))
        guard state.sendsAnswers, isCurrent(requestID, token) else { return .dropped }
        // Judged on what earlier frames left unread, so that one large answer (up to the
        // client's maxFrameSize) is not mistaken for a client that does not read.
        guard output.count <= limits.maxOutputBytes else {
            teardown(reason: "client not reading: \(output.count) bytes unread")
            return .dropped
        }
        let delivery = enqueueAnswer(requestID, then: payload) { try encode(encoder, &$0) }
        if final || delivery != .queued {
            // Not when the write in `enqueueAnswer` failed and tore the connection down:
            // the teardown already counted the request among those it ended.
            if inFlight.removeValue(forKey: requestID) != nil { events.requestFinished() }
            finishIfDone()
        }
        // A final frame was queued: the request is answered even if the connection then closed.
        return delivery == .queued && !final && state == .closed ? .dropped : delivery
    }

    /// Runs `body` on the loop's queue: a hop for a request task (they run on the global executor),
    /// inline for code already there.
    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        if loop.isCurrent { return body() }
        return await withCheckedContinuation { continuation in
            loop.execute { continuation.resume(returning: body()) }
        }
    }

    private func resumeRoomWaiters(for requestID: UInt32? = nil, with result: Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
        let ready = roomWaiters.filter { requestID == nil || $0.requestID == requestID }
        guard !ready.isEmpty else { return }
        roomWaiters.removeAll { requestID == nil || $0.requestID == requestID }
        events.streamsPaused(-ready.count)
        for waiter in ready { waiter.resume(result) }
    }

    // MARK: - Writing

    /// Queues a connection-level frame (hello, or an error with id 0).
    private func enqueue(_ encode: (inout [UInt8]) throws -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard state != .closed else { return }
        var bytes: [UInt8] = []
        do {
            try encode(&bytes)
        } catch {
            logger.error("could not encode a frame", metadata: ["error": "\(error)"])
            return
        }
        output.append(bytes)
        flush()
    }

    /// Queues a frame about a request. One that cannot be encoded (too large for the client's
    /// maxFrameSize, above all) is replaced by an error with the request's id, which ends the
    /// request: it still gets its one final frame.
    private func enqueueAnswer(_ requestID: UInt32, then payload: Data? = nil, _ encode: (inout [UInt8]) throws -> Void) -> AnswerDelivery {
        dispatchPrecondition(condition: .onQueue(queue))
        guard state != .closed else { return .dropped }
        var delivery = AnswerDelivery.queued
        do {
            var bytes: [UInt8] = []
            try encode(&bytes)
            output.append(bytes)
            if let payload { output.append(payload) }
        } catch {
            var bytes: [UInt8] = []
            let replacement = replacement(for: error, requestID: requestID)
            // Cannot fail: both replacements are a few hundred bytes, and no client accepts less than 4096.
            try? encoder.appendError(id: requestID, replacement, to: &bytes)
            output.append(bytes)
            delivery = .replaced(by: replacement.code)
        }
        flush()
        return delivery
    }

    private func replacement(for error: any Error, requestID: UInt32) -> ErrorBody {
        if case FrameError.frameTooLarge(let length, let limit) = error {
            // The request's own entry says only `resultTooLarge`; this says by how much.
            logger.notice("answer larger than the client accepts", metadata: [
                "request-id": "\(requestID)", "bytes": "\(length)", "client-max-frame-size": "\(limit)",
            ])
            return .resultTooLarge(bytes: length, maxFrameSize: limit)
        }
        logger.error("could not encode a frame", metadata: ["request-id": "\(requestID)", "error": "\(error)"])
        return ErrorBody(code: .internal, message: "the answer could not be encoded")
    }

    private func flush() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard state != .closed else { return }
        let unread = output.count
        switch output.flush(to: fd) {
        case .drained:
            watchWritable(false)
            if state == .closing { return teardown(reason: "closed after final frame") }
            resumeRoomWaiters(with: true)
        case .wouldBlock:
            watchWritable(true)
            if state == .closing, !closeTimerIsFixed, output.count < unread {
                closeTimer?.schedule(deadline: .now() + Self.closeTimeout.dispatchInterval)
            }
            if output.count < limits.streamHighWater / 2 { resumeRoomWaiters(with: true) }
        case .failed(let code):
            teardown(reason: "write failed: errno \(code)")
        }
    }

    private func watchWritable(_ wanted: Bool) {
        guard watchingWritable != wanted, let token else { return }
        watchingWritable = wanted
        loop.watchWritable(token, wanted)
    }

    // MARK: - Timers

    private func recordActivity() {
        lastActivity = .now()
        guard idleTimer == nil else { return }
        idleTimer = timer(after: limits.idleConnectionTimeout) { [unowned self] in idleTimerFired() }
    }

    private func idleTimerFired() {
        let idleUntil = lastActivity + limits.idleConnectionTimeout.dispatchInterval
        if idleUntil > .now() {
            idleTimer?.schedule(deadline: idleUntil)
        } else if inFlight.isEmpty {
            refuse(ErrorBody(code: .deadlineExceeded, message: "idle connection closed"), protocolError: false)
        } else {
            idleTimer?.schedule(deadline: .now() + limits.idleConnectionTimeout.dispatchInterval)
        }
    }

    private func timer(after duration: Duration, _ fire: @escaping () -> Void) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + duration.dispatchInterval)
        timer.setEventHandler { [weak self] in
            guard let self, state != .closed else { return }
            fire()
        }
        timer.resume()
        return timer
    }
}

/// How a connection tells its server what happened.
struct ConnectionEvents: Sendable {
    let closed: @Sendable (Connection, _ cancelledRequests: Int) -> Void
    let requestStarted: @Sendable () -> Void
    let requestFinished: @Sendable () -> Void
    /// A request answered at once (never in flight) was served.
    let requestAnsweredAtOnce: @Sendable () -> Void
    /// +1 when a stream starts waiting for room, -1 when it stops waiting.
    let streamsPaused: @Sendable (Int) -> Void
    let statistics: @Sendable () -> ServerStatistics
    /// Whether the server has begun to stop (it tells each connection too, a little later).
    let stopping: @Sendable () -> Bool
}
