import Dispatch
import Foundation
import Glibc
import LigasProtocol
import LigasSystemd
import Logging

/// One client connection, driven by Dispatch sources on its own serial queue.
///
/// Confinement, not locks: every mutable property is read and written only on `queue`. Request
/// work runs as Swift tasks; whatever they produce is posted back to `queue` before it touches
/// the connection. The write source is resumed only while output is pending.
final class Connection: @unchecked Sendable {
    let id: UInt64
    let fd: Int32
    let peer: PeerCredentials?
    let queue: DispatchQueue
    private let executor: QueueTaskExecutor

    private let limits: ServerLimits
    private let handler: any RequestHandler
    private let events: ConnectionEvents
    private var logger: Logger

    private var readSource: (any DispatchSourceRead)?
    private var writeSource: (any DispatchSourceWrite)?
    private var writeSourceResumed = false
    private var readSourceSuspended = false
    private var openSources = 0
    private var handshakeTimer: (any DispatchSourceTimer)?
    private var idleTimer: (any DispatchSourceTimer)?
    /// When the client last sent a frame. The idle timer is made once and, when it fires early,
    /// rescheduled from this: re-arming a timer on every frame costs a system call per request.
    private var lastActivity = DispatchTime.now()
    private var closeTimer: (any DispatchSourceTimer)?

    private var decoder: FrameDecoder
    private var encoder: FrameEncoder
    private var output = OutputQueue()
    private var session: NegotiatedSession?
    private var inFlight: [UInt32: Task<Void, Never>] = [:]
    private var roomWaiters: [(requestID: UInt32, continuation: CheckedContinuation<Bool, Never>)] = []
    private var refusingRequests = false
    private var closingAfterFlush = false
    private var closed = false

    init(
        id: UInt64, fd: Int32, limits: ServerLimits, handler: any RequestHandler,
        events: ConnectionEvents, logger: Logger
    ) {
        self.id = id
        self.fd = fd
        self.peer = try? PeerCredentials(ofSocket: fd)
        self.limits = limits
        self.handler = handler
        self.events = events
        self.queue = DispatchQueue(label: "ligasd.connection.\(id)")
        queue.setSpecific(key: Self.queueKey, value: id)
        self.executor = QueueTaskExecutor(queue: queue)
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
        queue.async { [self] in
            let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            read.setEventHandler { [unowned self] in readAvailable() }
            read.setCancelHandler { [self] in sourceCancelled() }
            let write = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
            write.setEventHandler { [unowned self] in flush() }
            write.setCancelHandler { [self] in sourceCancelled() }
            readSource = read
            writeSource = write
            openSources = 2
            read.resume()
            handshakeTimer = timer(after: limits.handshakeTimeout) { [unowned self] in
                refuse(ErrorBody(code: .deadlineExceeded, message: "no hello within the handshake timeout"))
            }
        }
    }

    /// Stop taking new requests (daemon shutting down); in-flight ones finish normally.
    func refuseNewRequests() {
        queue.async { [self] in
            guard !closed else { return }
            refusingRequests = true
            if inFlight.isEmpty { closeWhenFlushed() }
        }
    }

    /// Close now, whatever is in flight (end of the shutdown grace period).
    func forceClose() {
        queue.async { [self] in teardown(reason: "shutdown") }
    }

    private func sourceCancelled() {
        openSources -= 1
        if openSources == 0 { Glibc.close(fd) }  // only once Dispatch no longer watches it
    }

    private func teardown(reason: String) {
        guard !closed else { return }
        closed = true
        handshakeTimer?.cancel()
        idleTimer?.cancel()
        closeTimer?.cancel()
        let cancelled = inFlight.count
        for task in inFlight.values { task.cancel() }
        inFlight.removeAll()
        resumeRoomWaiters(with: false)
        if readSourceSuspended { readSource?.resume() }  // a suspended source never runs its cancel handler
        readSource?.cancel()
        if let writeSource {
            if !writeSourceResumed { writeSource.resume() }  // a suspended source never runs its cancel handler
            writeSource.cancel()
        }
        logger.debug("connection closed", metadata: ["reason": "\(reason)"])
        events.closed(self, cancelled)
    }

    /// Sends what is queued (typically a final error frame), then closes.
    private func closeWhenFlushed() {
        guard !closed, !closingAfterFlush else { return }
        closingAfterFlush = true
        readSource?.suspend()
        readSourceSuspended = true
        // A client that never reads must not keep the connection open forever.
        closeTimer = timer(after: .seconds(2)) { [unowned self] in teardown(reason: "peer not reading at close") }
        flush()
    }

    /// A connection-level refusal: a named error with request id 0, then close.
    private func refuse(_ error: ErrorBody) {
        guard !closed, !closingAfterFlush else { return }
        logger.notice("client protocol error", metadata: [
            "MESSAGE_ID": "\(LigasMessageID.clientProtocolError.hex)", "error-code": "\(error.code)", "error": "\(error.message)",
        ])
        enqueue { try encoder.appendError(id: 0, error, to: &$0) }
        closeWhenFlushed()
    }

    // MARK: - Reading

    private func readAvailable() {
        guard !closed, !closingAfterFlush else { return }
        var reads = 0
        withUnsafeTemporaryAllocation(byteCount: 64 << 10, alignment: 16) { buffer in
            while !closed, !closingAfterFlush, reads < 16 {
                let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
                if count > 0 {
                    reads += 1
                    decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                    processFrames()
                } else if count == 0 {
                    teardown(reason: "peer closed")
                } else if errno == EINTR {
                    continue
                } else if errno == EAGAIN || errno == EWOULDBLOCK {
                    return
                } else {
                    teardown(reason: "read failed: errno \(errno)")
                }
            }
        }
    }

    private func processFrames() {
        do {
            while !closed, !closingAfterFlush, let frame = try decoder.nextFrame() {
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
                chunkSize: UInt32(limits.chunkSize), agent: "ligasd")
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
        let requestID = frame.requestID
        guard !refusingRequests else {
            return sendError(requestID, ErrorBody(code: .shuttingDown, message: "ligasd is stopping; reconnect"))
        }
        guard inFlight[requestID] == nil else {
            return sendError(requestID, ErrorBody(code: .badRequest, message: "request id \(requestID) is already in flight"))
        }
        guard inFlight.count < limits.maxInFlightPerConnection else {
            return sendError(requestID, ErrorBody(
                code: .tooManyRequests, message: "more than \(limits.maxInFlightPerConnection) requests in flight"))
        }
        let request: Request
        do throws(ErrorBody) {
            guard case .request(_, let decoded) = try Message(frame: frame) else { return }
            request = decoded
        } catch {
            logger.notice("client protocol error", metadata: [
                "MESSAGE_ID": "\(LigasMessageID.clientProtocolError.hex)", "request-id": "\(requestID)",
                "error-code": "\(error.code)", "error": "\(error.message)",
            ])
            return sendError(requestID, error)
        }
        let context = RequestContext(
            requestID: requestID, connectionID: id, peer: peer, statistics: events.statistics)
        let exchange = RequestExchange(connection: self, requestID: requestID, request: request, chunkSize: session.chunkSize)
        events.requestStarted()
        inFlight[requestID] = Task(executorPreference: executor) { [handler, logger] in
            await exchange.run(handler: handler, context: context, logger: logger)
        }
    }

    private func cancel(_ requestID: UInt32) {
        guard let task = inFlight.removeValue(forKey: requestID) else { return }
        task.cancel()
        resumeRoomWaiters(for: requestID, with: false)
        events.requestFinished()
        finishIfDraining()
    }

    private func sendError(_ requestID: UInt32, _ error: ErrorBody) {
        enqueue { try encoder.appendError(id: requestID, error, to: &$0) }
    }

    private func finishIfDraining() {
        if refusingRequests, inFlight.isEmpty { closeWhenFlushed() }
    }

    // MARK: - Called by request tasks (hop onto the queue)

    /// Sends frames for a request that is still in flight. `final` ends the request.
    /// Returns false when the request was cancelled or the connection is gone.
    func send(_ requestID: UInt32, final: Bool, _ encode: @escaping @Sendable (FrameEncoder, inout [UInt8]) throws -> Void) async -> Bool {
        await onQueue { [self] in
            guard !closed, inFlight[requestID] != nil else { return false }
            if final {
                inFlight[requestID] = nil
                events.requestFinished()
            }
            enqueue { try encode(encoder, &$0) }
            if output.count > limits.maxOutputBytes {
                teardown(reason: "client not reading: \(output.count) bytes unread")
            }
            if final { finishIfDraining() }
            return !closed
        }
    }

    /// Suspends a stream until the client has read enough of what is queued (backpressure).
    /// Returns false when the request was cancelled or the connection is gone.
    ///
    /// Always a hop through the queue, never inline: between two chunks the queue must get to run
    /// what else is waiting there, the client's cancel above all.
    func waitForRoom(_ requestID: UInt32) async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                if closed || inFlight[requestID] == nil {
                    continuation.resume(returning: false)
                } else if output.count < limits.streamHighWater {
                    continuation.resume(returning: true)
                } else {
                    roomWaiters.append((requestID, continuation))
                    events.streamsPaused(1)
                }
            }
        }
    }

    /// Runs `body` on the connection's queue. Request tasks normally already run there (their
    /// executor is the queue), and then it runs inline: no hop, no wake-up, per frame sent.
    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        if DispatchQueue.getSpecific(key: Self.queueKey) == id { return body() }
        return await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    /// Marks each connection's queue with its connection id, so code can tell it runs there.
    private static let queueKey = DispatchSpecificKey<UInt64>()

    private func resumeRoomWaiters(for requestID: UInt32? = nil, with result: Bool) {
        let ready = roomWaiters.filter { requestID == nil || $0.requestID == requestID }
        guard !ready.isEmpty else { return }
        roomWaiters.removeAll { requestID == nil || $0.requestID == requestID }
        events.streamsPaused(-ready.count)
        for waiter in ready { waiter.continuation.resume(returning: result) }
    }

    // MARK: - Writing

    private func enqueue(_ encode: (inout [UInt8]) throws -> Void) {
        guard !closed else { return }
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

    private func flush() {
        guard !closed else { return }
        switch output.flush(to: fd) {
        case .drained:
            if writeSourceResumed {
                writeSource?.suspend()
                writeSourceResumed = false
            }
            if closingAfterFlush { return teardown(reason: "closed after final frame") }
            resumeRoomWaiters(with: true)
        case .wouldBlock:
            if !writeSourceResumed {
                writeSource?.resume()
                writeSourceResumed = true
            }
            if output.count < limits.streamHighWater / 2 { resumeRoomWaiters(with: true) }
        case .failed(let code):
            teardown(reason: "write failed: errno \(code)")
        }
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
            refuse(ErrorBody(code: .deadlineExceeded, message: "idle connection closed"))
        } else {
            idleTimer?.schedule(deadline: .now() + limits.idleConnectionTimeout.dispatchInterval)
        }
    }

    private func timer(after duration: Duration, _ fire: @escaping () -> Void) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + duration.dispatchInterval)
        timer.setEventHandler { [weak self] in
            guard let self, !closed else { return }
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
    /// +1 when a stream starts waiting for room, -1 when it stops waiting.
    let streamsPaused: @Sendable (Int) -> Void
    let statistics: @Sendable () -> ServerStatistics
}

extension Duration {
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
