import Dispatch
import FoundationEssentials
import Glibc
import LigasProtocol
import Synchronization

/// The multiplexing core of the client: one socket, many requests in flight, answers matched
/// to callers by request id in whatever order they arrive.
///
/// Its state is confined to one serial queue, which callers and the reader enter with `sync` (on
/// their own threads: the queue serves as a lock that never hops). The socket is read by the
/// process's `ReaderThread`, blocked in `epoll_wait` over every connection until a daemon sends
/// something: an answer then costs the wake-up of that thread (one for all the answers that
/// arrive together) and of the waiting task, and no more (a Dispatch read source added its
/// manager thread and a worker thread to every answer). While callers read their own answers (see
/// `call`) and nothing else awaits the reader, the connection is parked instead (out of the
/// reader's set), so the reader does not wake for answers it would find taken; what the daemon
/// sends meanwhile (an error with id 0 before it closes) is read with the next call. While
/// answers come through the reader, the connection stays in its set between them, so that each
/// answer is one event and no `epoll_ctl`. After a cancel it reads on
/// until the next request, so what the daemon sent for the cancelled request before it read the
/// cancel does not sit in the socket (nor the rest of it in the daemon).
///
/// **Flow control.** Stream chunks wait in their `StreamReceiver` until the consumer takes them.
/// When the bytes waiting over all the connection's streams pass `highWater`, the connection stops
/// reading its socket (frames already read stay undecoded), so the socket fills and the daemon's
/// own backpressure pauses the stream; it reads again once they are back under `lowWater`. The
/// check comes after every chunk, so at most `highWater` plus one chunk (the negotiated chunk size,
/// 256 KiB by default) waits in the client per connection. One exception, against deadlock: while
/// another request on the same connection awaits its answer, or another stream's consumer waits
/// with nothing buffered, the socket is read anyway, since what they wait for may sit behind the
/// paused stream's chunks, and the paused stream's consumer may be waiting for them before it
/// reads on. With one stream in flight the bound always holds.
final class ClientConnection: @unchecked Sendable {
    typealias OpenedStream = (header: StreamHeader, chunks: StreamReceiver)

    /// Past this many bytes of unconsumed stream chunks, stop reading the socket.
    static let highWater = 1 << 20
    /// Read the socket again when the unconsumed bytes are back at or under this.
    static let lowWater = 256 << 10

    /// What the flow control did, for tests and diagnostics.
    struct FlowStatistics: Sendable, Hashable {
        /// Bytes of stream chunks received and not yet taken by their consumers.
        var buffered = 0
        /// The most `buffered` ever was.
        var peakBuffered = 0
        /// Times the connection stopped reading its socket.
        var pauses = 0
        /// Answers their callers read themselves (see `call`).
        var answersTakenHere = 0
        /// Stream headers, and then first chunks, their callers read themselves (see `stream`).
        var streamHeadersTakenHere = 0
        var firstChunksTakenHere = 0
        /// Times a caller waiting here stopped (past its budget; for a first chunk, also when not
        /// alone any more, or when flow control paused the connection) and the reader thread took
        /// over: an answer, a stream's header, or a stream from its first chunk on.
        var readerTakeovers = 0
        /// Times the reader thread was told the socket was readable.
        var readerWakeUps = 0
        /// Times the connection left the reader thread's set (see `readerParked`).
        var readerParks = 0
        /// Bytes in the socket not read yet (`FIONREAD`, when the statistics are taken).
        var unreadInSocket = 0
    }

    enum Pending {
        case unary(CheckedContinuation<[UInt8], any Error>)
        /// A unary request whose caller has no continuation waiting yet: its answer goes to
        /// `answeredHere` until the caller takes it (see `call`).
        case unaryHere
        case streamHeader(CheckedContinuation<OpenedStream, any Error>)
        /// A stream request whose caller waits for the header on its own thread: it goes to
        /// `openedHere` (see `stream`).
        case streamHeaderHere
        /// `readsHere`: the consumer reads the first chunk itself (see `readFirstChunkHere`); until
        /// then the reader thread does not wait for this stream.
        case streaming(StreamReceiver, readsHere: Bool)
    }

    private let socket: ClientSocket
    private let queue = DispatchQueue(label: "ligas-client.connection")
    private var decoder = FrameDecoder()
    private var encoder = FrameEncoder()
    private var encodedRequests = EncodedRequests()
    private var pending: [UInt32: Pending] = [:]
    /// Answers of `.unaryHere` requests, until their callers take them.
    private var answeredHere: [UInt32: Result<[UInt8], any Error>] = [:]
    /// Headers of `.streamHeaderHere` requests, until their callers take them.
    private var openedHere: [UInt32: Result<OpenedStream, any Error>] = [:]
    private var helloWaiter: CheckedContinuation<NegotiatedSession, any Error>?
    /// What this side announced, to check the server's reply against.
    private var sentHello: Hello?
    private var nextID: UInt32 = 1
    private var failure: ClientError?
    private var flow = FlowStatistics()
    /// Bytes of stream chunks received and not taken yet, and whether reading is paused: shared
    /// with the consumers, which release bytes on their own threads. A release enters the queue
    /// only when it may resume a paused connection (see `released`); a hop per chunk consumed, to
    /// count it, woke a Dispatch worker thread for every quarter MiB of a download.
    private let buffered = Atomic<Int>(0)
    private let paused = Atomic<Bool>(false)
    /// Written on the queue only; sequentially consistent with `buffered` (see `updateReading`).
    private var readingPaused: Bool {
        get { paused.load(ordering: .sequentiallyConsistent) }
        set { paused.store(newValue, ordering: .sequentiallyConsistent) }
    }
    /// Whether the connection is out of the reader thread's set (flow control, or nothing to read
    /// for); it is out, too, before `start` and after a failure.
    private var readerParked = true
    /// The connection's registration with `ReaderThread.shared`, from `start` on.
    private var readerToken: UInt64?
    /// Whether the last call took its answer on its own thread (see `call`): only then does the
    /// reader park while nothing awaits it. Calls answered through the reader come one after
    /// another on a busy connection, and a reader that parked between them would be woken twice
    /// per answer (by the next call, then by the answer). True at first: the usual client is a
    /// caller alone in its process (a command-line tool, a widget).
    private var answersTakenHere = true
    /// A request was cancelled since the last one was sent: frames the daemon sent for it before
    /// it read the cancel may still come, and the reader stays up to throw them away. They all
    /// come before the answer to the next request (the daemon handles frames in order), so
    /// whoever reads that answer reads them first: sending a request clears this.
    private var lateFramesMayCome = false
    /// Where answers are read (on the heap, once); a stream chunk's payload is read straight
    /// into its own array once its header is in (`FrameDecoder.receive`).
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FrameDecoder.scratchSize, alignment: 16)

    /// How long a caller alone in the process waits for its answer on its own thread.
    static let defaultAnswerHereBudget: Duration = .milliseconds(2)
    /// The first part of that wait, spent asking the socket (`poll` with a zero timeout) rather than
    /// asleep in `poll`: a cached answer usually comes within it, and a thread that slept must be
    /// woken, which costs the daemon's write and the caller's return a cross-core wake-up each
    /// (Benchmarks/HISTORY.md, nineteenth stop). A wait costs at most this much CPU more; past it,
    /// the caller sleeps.
    static let spinBudget: Duration = .microseconds(50)
    private let answerHereBudget: Duration
    private let callers: CallsInFlight
    /// How long a write may wait for a full socket to take anything (see `ClientSocket.writeAll`).
    static let defaultWriteStallLimit: Duration = .seconds(10)
    private let writeStallLimit: Duration

    init(
        socket: ClientSocket, answerHereBudget: Duration = ClientConnection.defaultAnswerHereBudget,
        callers: CallsInFlight = .process, writeStallLimit: Duration = ClientConnection.defaultWriteStallLimit
    ) {
        self.socket = socket
        self.answerHereBudget = answerHereBudget
        self.callers = callers
        self.writeStallLimit = writeStallLimit
    }

    // MARK: - Handshake

    /// Cancellable: a daemon that accepted but never answers (stopped, wedged, not ligasd) must
    /// not hold the caller past its timeout or Ctrl-C. A cancelled handshake leaves the
    /// connection failed (there is no session to go on with) and throws `CancellationError`.
    func start(hello: Hello) async throws -> NegotiatedSession {
        try await withTaskCancellationHandler {
            try await sendHello(hello)
        } onCancel: {
            queue.async { [self] in
                guard let waiter = helloWaiter else { return }
                helloWaiter = nil
                waiter.resume(throwing: CancellationError())
                fail(.connectionClosed)
            }
        }
    }

    private func sendHello(_ hello: Hello) async throws -> NegotiatedSession {
        try await withCheckedThrowingContinuation { continuation in
            queue.sync { [self] in
                // Cancelled before this ran: the handler above found no waiter.
                if Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
                decoder = FrameDecoder(maxFrameSize: Int(hello.maxFrameSize))
                sentHello = hello
                helloWaiter = continuation
                readerToken = ReaderThread.shared.register(self)
                wakeReader()
                var bytes: [UInt8] = []
                do { try encoder.appendHello(hello, to: &bytes) } catch { return fail(.protocolViolation("\(error)")) }
                // A daemon at its connection cap sends a named error and closes, perhaps before our
                // hello arrives. Then the write fails, but the error is waiting to be read.
                _ = write(bytes)
            }
        }
    }

    // MARK: - Calls

    /// Sends a request and waits for its (non-stream) response payload.
    ///
    /// A caller alone in the process (no other call in flight on any connection, the usual case of
    /// a command-line tool or a widget) waits for its answer on its own thread, reading the
    /// socket itself, for up to `answerHereBudget`: a daemon answering from its cache answers well
    /// within it, and the caller then waits for no other thread, nor does its task suspend. Past
    /// the budget, or with other calls in flight (whose tasks must not find the cooperative
    /// threads busy waiting), the answer comes through the reader thread and a continuation.
    func call(_ request: Request) async throws -> [UInt8] {
        try Task.checkCancellation()
        let alone = callers.enter()
        defer { callers.leave() }
        let (id, waitHere) = try queue.sync { try sendUnary(request, mayWaitHere: alone) }
        if waitHere, let answered = takeAnswerHere(id) { return try answered.get() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.sync { [self] in
                    if let answer = answeredHere.removeValue(forKey: id) { return continuation.resume(with: answer) }
                    pending[id] = .unary(continuation)
                    wakeReader()
                }
            }
        } onCancel: {
            self.cancel(id)
        }
    }

    /// Sends a unary request (synchronously, on the caller's thread: no wake-up just to write).
    /// Returns its id, and whether the caller may wait for the answer here: it is alone in the
    /// process and nothing else is in flight on the connection. Then the connection leaves the
    /// reader's set, so that the reader does not wake for this answer; otherwise the answer comes
    /// through the reader.
    private func sendUnary(_ request: Request, mayWaitHere: Bool) throws(ClientError) -> (UInt32, Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
        if let failure { throw failure }
        let id = allocateID()
        let alone = mayWaitHere && pending.isEmpty && !readingPaused && answerHereBudget > .zero
        pending[id] = .unaryHere
        send(request, id: id)
        if alone { parkReader() } else { answersTakenHere = false }
        return (id, alone)
    }

    /// The answer to `id`, waited for here up to the budget; nil past it.
    private func takeAnswerHere(_ id: UInt32) -> Result<[UInt8], any Error>? {
        readHere(until: ContinuousClock.now + answerHereBudget, readFirst: false) {
            answeredHere.removeValue(forKey: id)  // a failure answers it too (`fail` does)
        } settle: { answered in
            if answered != nil { flow.answersTakenHere += 1 } else { flow.readerTakeovers += 1 }
            answersTakenHere = answered != nil
        }
    }

    /// Reads the socket on the caller's thread until `taken` (asked on the queue after every
    /// read) has what the caller waits for, or `deadline` passes; `settle` then runs on the queue
    /// with what was taken (nil past the deadline), and it is returned. The socket is polled
    /// outside the queue and read inside it, so the reader thread, which serves every connection
    /// of the process, never waits for this queue longer than a read. `readFirst`: read before
    /// the first poll (when the bytes are most likely there already). The first `spinBudget` of
    /// the wait polls without sleeping.
    private func readHere<T>(
        until deadline: ContinuousClock.Instant, readFirst: Bool, _ taken: () -> T?, settle: (T?) -> Void
    ) -> T? {
        var waiting = true
        var readable = readFirst
        let spinDeadline = min(deadline, ContinuousClock.now + Self.spinBudget)
        while true {
            let (found, waitOn) = queue.sync { () -> (T?, Bool) in
                // Taken first: a read now could take the bytes of another caller polling the socket.
                var found = taken()
                if found == nil, readable, failure == nil {
                    if readOnce(honouringFlowControl: true) == .closed { fail(.connectionClosed) }
                    found = taken()
                }
                let waitOn = found == nil && waiting && ContinuousClock.now < deadline
                if !waitOn { settle(found) }
                return (found, waitOn)
            }
            guard waitOn else { return found }
            var readiness = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            var ready: Int32 = 0
            while ready == 0, ContinuousClock.now < spinDeadline { ready = poll(&readiness, 1, 0) }
            if ready == 0 {
                let remaining = ((deadline - ContinuousClock.now) / .milliseconds(1)).rounded(.up)
                ready = poll(&readiness, 1, Int32(min(max(remaining, 0), 60_000)))
            }
            if ready < 0, errno != EINTR { waiting = false }
            readable = ready > 0
        }
    }

    /// Sends a request whose answer is a stream; returns its header and its chunks.
    ///
    /// A caller alone in the process waits for the header on its own thread, as a call does, and
    /// its consumer then reads the first chunk the same way (`readFirstChunkHere`): it would only
    /// wait for both, and the two hand-offs from the reader thread (each a wake-up, and a wait for
    /// a core while the reader and the daemon keep both busy) came before any hashing could start.
    /// The reader thread reads the rest ahead while the consumer hashes, which a consumer that read
    /// every chunk itself could not overlap (`ligas-bench streams`, alternating runs, the header
    /// read here in all three: 1 MiB images 970–1,273 MiB/s with every chunk through the reader,
    /// 1,039–1,269 with every chunk read here, 1,239–1,407 with the first chunk here; 20 MiB
    /// 1,337–1,511, 1,053–1,385, 1,383–1,496 but for one run of 952).
    func stream(_ request: Request) async throws -> (id: UInt32, opened: OpenedStream) {
        let alone = callers.enter()
        defer { callers.leave() }
        let (id, waitHere) = queue.sync { () -> (UInt32, Bool) in
            let id = allocateID()
            // Cancelled already: the continuation below says so, and nothing is sent.
            guard failure == nil, alone, pending.isEmpty, !readingPaused, answerHereBudget > .zero, !Task.isCancelled
            else { return (id, false) }
            pending[id] = .streamHeaderHere
            send(request, id: id)
            parkReader()
            return (id, true)
        }
        if waitHere, let opened = takeStreamHere(id) {
            // Cancelled while it waited here: the cancel the continuation's handler would send.
            guard !Task.isCancelled else {
                cancel(id)
                throw CancellationError()
            }
            return (id, try opened.get())
        }
        let opened: OpenedStream = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<OpenedStream, any Error>) in
                queue.sync { [self] in
                    if waitHere {
                        if let opened = openedHere.removeValue(forKey: id) { return continuation.resume(with: opened) }
                        pending[id] = .streamHeader(continuation)
                        return wakeReader()
                    }
                    if let failure { return continuation.resume(throwing: failure) }
                    // Cancelled before this ran: `cancel(id)` found nothing to cancel, so nothing is sent.
                    // (`queue.sync` runs the block on the calling task's thread, so this is its flag.)
                    if Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
                    pending[id] = .streamHeader(continuation)
                    send(request, id: id)
                    answersTakenHere = false
                    wakeReader()
                }
            }
        } onCancel: {
            self.cancel(id)
        }
        return (id, opened)
    }

    /// The header of stream `id`, waited for here up to the budget; nil past it.
    private func takeStreamHere(_ id: UInt32) -> Result<OpenedStream, any Error>? {
        readHere(until: ContinuousClock.now + answerHereBudget, readFirst: false) {
            openedHere.removeValue(forKey: id)
        } settle: { opened in
            if opened != nil { flow.streamHeadersTakenHere += 1 } else { flow.readerTakeovers += 1 }
            answersTakenHere = opened != nil
        }
    }

    /// The first chunk of a stream whose caller read the header itself, read the same way by its
    /// consumer, if it is still alone in the process, for up to the budget; then the reader thread
    /// takes the stream over. (Past the budget, a daemon fetching a slow remote, or when flow
    /// control paused the connection for another stream, the consumer then waits for the reader
    /// as for any stream.) Alone, because two callers reading here at once would take each
    /// other's bytes, and the one left in `poll` would wait out its budget.
    private func readFirstChunkHere(_ id: UInt32, _ receiver: StreamReceiver) {
        let alone = callers.enter()
        defer { callers.leave() }
        let budget = alone ? answerHereBudget : .zero
        _ = readHere(until: ContinuousClock.now + budget, readFirst: true) { () -> Void? in
            guard case .streaming(_, readsHere: true) = pending[id], receiver.isEmpty, !readingPaused else { return () }
            return nil
        } settle: { _ in
            guard case .streaming(_, readsHere: true) = pending[id] else { return }
            if receiver.isEmpty { flow.readerTakeovers += 1 } else { flow.firstChunksTakenHere += 1 }
            pending[id] = .streaming(receiver, readsHere: false)
            wakeReader()
        }
    }

    /// Tells the daemon to stop working on `id`; the caller gets `CancellationError`.
    func cancel(_ id: UInt32) {
        queue.async { [self] in
            guard let entry = pending.removeValue(forKey: id) else { return }
            switch entry {
            case .unary(let continuation): continuation.resume(throwing: CancellationError())
            case .unaryHere: answeredHere[id] = .failure(CancellationError())
            case .streamHeader(let continuation): continuation.resume(throwing: CancellationError())
            case .streamHeaderHere: openedHere[id] = .failure(CancellationError())
            case .streaming(let receiver, _): receiver.abandon()
            }
            var bytes: [UInt8] = []
            try? encoder.appendCancel(id: id, to: &bytes)
            if failure == nil { _ = write(bytes) }
            lateFramesMayCome = true
            wakeReader()
            updateReading()
        }
    }

    func close() {
        queue.sync { fail(.connectionClosed) }
    }

    func flowStatistics() -> FlowStatistics {
        queue.sync {
            var statistics = flow
            statistics.buffered = buffered.load(ordering: .sequentiallyConsistent)
            var unread: Int32 = 0
            if ioctl(socket.fd, UInt(FIONREAD), &unread) == 0 { statistics.unreadInSocket = Int(unread) }
            return statistics
        }
    }

    private func allocateID() -> UInt32 {
        dispatchPrecondition(condition: .onQueue(queue))
        defer { nextID = nextID == UInt32.max ? 1 : nextID + 1 }
        return nextID
    }

    private func send(_ request: Request, id: UInt32) {
        dispatchPrecondition(condition: .onQueue(queue))
        var bytes: [UInt8] = []
        do {
            try encoder.appendRaw(.request, requestID: id, bytes: encodedRequests.payload(of: request), to: &bytes)
        } catch {
            return complete(id, with: .failure(ClientError.protocolViolation("cannot encode request: \(error)")))
        }
        guard write(bytes) else { return }
        lateFramesMayCome = false
        updateReading()  // its answer may sit behind a paused stream's chunks
    }

    /// A write failed: the daemon closed or reset the connection, or stopped reading. What it sent
    /// before is still on the socket, often an error frame (id 0) that says why (PROTOCOL.md §6):
    /// read and dispatch all of it, then fail with that error or, if there was none, `error`.
    private func writeFailed(_ error: ClientError) {
        dispatchPrecondition(condition: .onQueue(queue))
        while failure == nil {
            let outcome = readOnce(honouringFlowControl: false)
            if outcome != .data { break }
        }
        fail(error)  // no-op when the daemon's own error already failed the connection
    }

    /// Writes `bytes`; on failure fails the connection (`writeFailed`) and returns false. A daemon
    /// that takes nothing for `writeStallLimit` fails it with `daemonNotReading`.
    private func write(_ bytes: [UInt8]) -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        switch socket.writeAll(bytes, stallLimit: writeStallLimit) {
        case .written: return true
        case .closed: writeFailed(.connectionClosed)
        case .stalled: writeFailed(.daemonNotReading(writeStallLimit))
        }
        return false
    }

    // MARK: - Reading

    private enum ReadOutcome { case data, wouldBlock, closed }

    /// Whether anything waits for the reader thread: the hello, a call's continuation, a stream,
    /// or late frames of a cancelled request. A caller reading its own answer (`.unaryHere`,
    /// `.streamHeaderHere`, a stream whose consumer `readsHere`) does not.
    private var readerIsAwaited: Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        return helloWaiter != nil || lateFramesMayCome || pending.values.contains { entry in
            switch entry {
            case .unaryHere, .streamHeaderHere, .streaming(_, readsHere: true): false
            case .unary, .streamHeader, .streaming(_, readsHere: false): true
            }
        }
    }

    /// Puts a parked connection back in the reader's set (it is read at once if its socket has
    /// something).
    private func wakeReader() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard readerParked, failure == nil, let readerToken else { return }
        readerParked = false
        ReaderThread.shared.setReading(true, fd: socket.fd, token: readerToken)
    }

    /// Takes the connection out of the reader's set.
    private func parkReader() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !readerParked, let readerToken else { return }
        readerParked = true
        flow.readerParks += 1
        ReaderThread.shared.setReading(false, fd: socket.fd, token: readerToken)
    }

    /// The reader thread found the socket readable: read once, then park if nothing awaits the
    /// reader any more (or flow control paused the connection). An event that was on its way when
    /// the connection parked is ignored: whoever parked it reads it (a caller waiting here).
    func readAvailable() {
        queue.sync {
            flow.readerWakeUps += 1
            guard failure == nil, !readerParked else { return }
            if !readingPaused, readOnce(honouringFlowControl: true) == .closed { return fail(.connectionClosed) }
            if readingPaused || (answersTakenHere && !readerIsAwaited) { parkReader() }
        }
    }

    deinit {
        readBuffer.deallocate()
        // Out of the reader's set before the socket closes (a number still in the set could be
        // reused by a new socket that would inherit its watch).
        if let readerToken {
            ReaderThread.shared.setReading(false, fd: socket.fd, token: readerToken)
            ReaderThread.shared.forget(readerToken)
        }
    }

    /// One read, and the frames it completes. With flow control honoured, frames stop being
    /// dispatched when the connection pauses; they stay in the decoder until it resumes.
    private func readOnce(honouringFlowControl: Bool) -> ReadOutcome {
        dispatchPrecondition(condition: .onQueue(queue))
        let count = decoder.receive(using: readBuffer) { [fd = socket.fd] memory in
            Glibc.read(fd, memory.baseAddress, memory.count)
        }
        if count > 0 {
            dispatchDecodedFrames(honouringFlowControl: honouringFlowControl)
            return .data
        }
        if count < 0, errno == EAGAIN || errno == EINTR { return .wouldBlock }
        // EOF or a failed read: whatever came before has been dispatched.
        dispatchDecodedFrames(honouringFlowControl: false)
        return .closed
    }

    private func dispatchDecodedFrames(honouringFlowControl: Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
        do {
            while failure == nil, !(honouringFlowControl && readingPaused), let frame = try decoder.nextFrame() {
                dispatch(frame)
            }
        } catch {
            fail(.protocolViolation(error.description))
        }
    }

    // MARK: - Flow control

    /// Called by a stream's consumer side (any thread) when bytes leave a receiver's buffer, or
    /// with 0 when a consumer starts waiting. Only a paused connection has anything to do then:
    /// resume once under `lowWater`, or because a consumer now waits with nothing buffered.
    private func released(_ count: Int) {
        let left = buffered.subtract(count, ordering: .sequentiallyConsistent).newValue
        guard readingPaused, left <= Self.lowWater || count == 0 else { return }
        queue.async { [self] in updateReading() }
    }

    /// Pauses or resumes reading the socket, per the rule in the type's comment.
    private func updateReading() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard failure == nil else { return }
        func awaitingAnswers() -> Bool {
            pending.values.contains { entry in
                switch entry {
                case .unary, .unaryHere, .streamHeader, .streamHeaderHere: true
                case .streaming(let receiver, _): receiver.consumerIsWaiting
                }
            }
        }
        if !readingPaused, buffered.load(ordering: .sequentiallyConsistent) > Self.highWater, !awaitingAnswers() {
            readingPaused = true
            flow.pauses += 1
        }
        // Looked at again once the pause is visible: a consumer that released bytes, or began to
        // wait, before it could see the pause did not ask to resume (`released`), so it is seen here.
        if readingPaused, buffered.load(ordering: .sequentiallyConsistent) <= Self.lowWater || awaitingAnswers() {
            readingPaused = false
            wakeReader()
            dispatchDecodedFrames(honouringFlowControl: true)  // what was read before the pause
        }
    }

    private func dispatch(_ frame: Frame) {
        dispatchPrecondition(condition: .onQueue(queue))
        let message: Message
        do throws(ErrorBody) {
            message = try Message(frame: frame)
        } catch {
            return fail(.protocolViolation(error.message))
        }
        switch message {
        case .hello(let reply):
            guard let waiter = helloWaiter, let sentHello else { return fail(.protocolViolation("unexpected hello")) }
            helloWaiter = nil
            do throws(ErrorBody) {
                let session = try Handshake.complete(sent: sentHello, received: reply)
                encoder.maxFrameSize = session.peerMaxFrameSize
                waiter.resume(returning: session)
            } catch {
                waiter.resume(throwing: ClientError.server(error))
            }
        case .response(let id, let payload):
            complete(id, with: .success(payload))
        case .error(0, let body):
            fail(.server(body))
        case .error(let id, let body):
            complete(id, with: .failure(ClientError.server(body)))
        case .streamStart(let id, let header):
            let waiter: CheckedContinuation<OpenedStream, any Error>?
            switch pending[id] {
            case .streamHeader(let continuation): waiter = continuation
            case .streamHeaderHere: waiter = nil
            default: return
            }
            var readFirstChunk: (@Sendable (StreamReceiver) -> Void)?
            if waiter == nil { readFirstChunk = { [weak self] receiver in self?.readFirstChunkHere(id, receiver) } }
            let receiver = StreamReceiver(
                onRelease: { [weak self] count in self?.released(count) },
                onWait: { [weak self] in self?.released(0) },
                readFirstChunk: readFirstChunk)
            pending[id] = .streaming(receiver, readsHere: waiter == nil)
            if let waiter {
                waiter.resume(returning: (header: header, chunks: receiver))
            } else {
                openedHere[id] = .success((header: header, chunks: receiver))
            }
        case .streamChunk(let id, let bytes):
            guard case .streaming(let receiver, _) = pending[id] else { return }
            let now = buffered.add(receiver.receive(bytes), ordering: .sequentiallyConsistent).newValue
            flow.peakBuffered = max(flow.peakBuffered, now)
            updateReading()
        case .streamEnd(let id, let end):
            guard case .streaming(let receiver, _) = pending.removeValue(forKey: id) else { return }
            receiver.finish(verifying: end)
        case .request, .cancel:
            fail(.protocolViolation("a server may not send \(frame.kind) frames"))
        }
    }

    private func complete(_ id: UInt32, with result: Result<[UInt8], any Error>) {
        dispatchPrecondition(condition: .onQueue(queue))
        switch pending.removeValue(forKey: id) {
        case .unary(let continuation): continuation.resume(with: result)
        case .unaryHere: answeredHere[id] = result
        case .streamHeader(let continuation):
            continuation.resume(with: result.flatMap { _ in .failure(ClientError.protocolViolation("expected a stream")) })
        case .streamHeaderHere:
            openedHere[id] = result.flatMap { _ in .failure(ClientError.protocolViolation("expected a stream")) }
        case .streaming(let receiver, _):
            if case .failure(let error) = result { receiver.finish(throwing: error) }
        case nil: break
        }
        updateReading()  // with no other answer awaited, a paused stream may pause the socket again
    }

    /// Fails everything in flight; the connection is unusable afterwards.
    private func fail(_ error: ClientError) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard failure == nil else { return }
        failure = error
        helloWaiter?.resume(throwing: error)
        helloWaiter = nil
        let entries = pending
        pending.removeAll()
        for (id, entry) in entries {
            switch entry {
            case .unary(let continuation): continuation.resume(throwing: error)
            case .unaryHere: answeredHere[id] = .failure(error)
            case .streamHeader(let continuation): continuation.resume(throwing: error)
            case .streamHeaderHere: openedHere[id] = .failure(error)
            case .streaming(let receiver, _): receiver.finish(throwing: error)
            }
        }
        // The daemon sees the connection end now, not when the last reference goes.
        Glibc.shutdown(socket.fd, Int32(SHUT_RDWR))
        parkReader()
    }
}
