import Dispatch
import Foundation
import Glibc
import LigasProtocol

/// The multiplexing core of the client: one socket, many requests in flight, answers matched
/// to callers by request id in whatever order they arrive.
///
/// Like the server, it is confined to one serial queue: the read source, the pending table and
/// every write run there.
final class ClientConnection: @unchecked Sendable {
    typealias OpenedStream = (header: StreamHeader, chunks: AsyncThrowingStream<Data, any Error>)

    enum Pending {
        case unary(CheckedContinuation<[UInt8], any Error>)
        case streamHeader(CheckedContinuation<OpenedStream, any Error>)
        case streaming(StreamReceiver)
    }

    private let socket: ClientSocket
    private let queue = DispatchQueue(label: "ligas-client.connection")
    private var readSource: (any DispatchSourceRead)?
    private var decoder = FrameDecoder()
    private var encoder = FrameEncoder()
    private var pending: [UInt32: Pending] = [:]
    private var helloWaiter: CheckedContinuation<NegotiatedSession, any Error>?
    /// What this side announced, to check the server's reply against.
    private var sentHello: Hello?
    private var nextID: UInt32 = 1
    private var failure: ClientError?

    init(socket: ClientSocket) {
        self.socket = socket
    }

    // MARK: - Handshake

    func start(hello: Hello) async throws -> NegotiatedSession {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in
                decoder = FrameDecoder(maxFrameSize: Int(hello.maxFrameSize))
                sentHello = hello
                helloWaiter = continuation
                let source = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: queue)
                source.setEventHandler { [unowned self] in readAvailable() }
                source.setCancelHandler { [fd = socket.fd] in Glibc.close(fd) }
                readSource = source
                source.resume()
                var bytes: [UInt8] = []
                do { try encoder.appendHello(hello, to: &bytes) } catch { return fail(.protocolViolation("\(error)")) }
                // A daemon at its connection cap sends a named error and closes, perhaps before our
                // hello arrives. Then the write fails, but the error is waiting to be read: let the
                // read source report it (or the close) rather than a bare "connection closed".
                _ = socket.writeAll(bytes)
            }
        }
    }

    // MARK: - Calls

    /// Sends a request and waits for its (non-stream) response payload.
    func call(_ request: Request) async throws -> [UInt8] {
        let id = queue.sync { allocateID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Synchronously, on the caller's thread: no thread wake-up just to write.
                queue.sync { [self] in
                    if let failure { return continuation.resume(throwing: failure) }
                    pending[id] = .unary(continuation)
                    send(request, id: id)
                }
            }
        } onCancel: {
            self.cancel(id)
        }
    }

    /// Sends a request whose answer is a stream; returns its header and its chunks.
    func stream(_ request: Request) async throws -> (id: UInt32, opened: OpenedStream) {
        let id = queue.sync { allocateID() }
        let opened: OpenedStream = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<OpenedStream, any Error>) in
                queue.sync { [self] in
                    if let failure { return continuation.resume(throwing: failure) }
                    pending[id] = .streamHeader(continuation)
                    send(request, id: id)
                }
            }
        } onCancel: {
            self.cancel(id)
        }
        return (id, opened)
    }

    /// Tells the daemon to stop working on `id`; the caller gets `CancellationError`.
    func cancel(_ id: UInt32) {
        queue.async { [self] in
            guard let entry = pending.removeValue(forKey: id) else { return }
            var bytes: [UInt8] = []
            try? encoder.appendCancel(id: id, to: &bytes)
            _ = socket.writeAll(bytes)
            switch entry {
            case .unary(let continuation): continuation.resume(throwing: CancellationError())
            case .streamHeader(let continuation): continuation.resume(throwing: CancellationError())
            case .streaming(let receiver): receiver.finish(throwing: nil)
            }
        }
    }

    func close() {
        queue.sync { fail(.connectionClosed) }
    }

    private func allocateID() -> UInt32 {
        defer { nextID = nextID == UInt32.max ? 1 : nextID + 1 }
        return nextID
    }

    private func send(_ request: Request, id: UInt32) {
        var bytes: [UInt8] = []
        do {
            try encoder.appendRequest(id: id, request, to: &bytes)
        } catch {
            return complete(id, with: .failure(ClientError.protocolViolation("cannot encode request: \(error)")))
        }
        if !socket.writeAll(bytes) { fail(.connectionClosed) }
    }

    // MARK: - Reading

    private func readAvailable() {
        withUnsafeTemporaryAllocation(byteCount: 64 << 10, alignment: 16) { buffer in
            let count = Glibc.read(socket.fd, buffer.baseAddress, buffer.count)
            if count > 0 {
                decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                do {
                    while let frame = try decoder.nextFrame() { dispatch(frame) }
                } catch let error as FrameError {
                    fail(.protocolViolation(error.description))
                } catch {
                    fail(.protocolViolation("\(error)"))
                }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                fail(.connectionClosed)
            }
        }
    }

    private func dispatch(_ frame: Frame) {
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
            guard case .streamHeader(let continuation) = pending[id] else { return }
            let receiver = StreamReceiver()
            pending[id] = .streaming(receiver)
            continuation.resume(returning: (header: header, chunks: receiver.stream))
        case .streamChunk(let id, let bytes):
            guard case .streaming(let receiver) = pending[id] else { return }
            receiver.receive(bytes)
        case .streamEnd(let id, let end):
            guard case .streaming(let receiver) = pending.removeValue(forKey: id) else { return }
            receiver.finish(verifying: end)
        case .request, .cancel:
            fail(.protocolViolation("a server may not send \(frame.kind) frames"))
        }
    }

    private func complete(_ id: UInt32, with result: Result<[UInt8], any Error>) {
        switch pending.removeValue(forKey: id) {
        case .unary(let continuation): continuation.resume(with: result)
        case .streamHeader(let continuation):
            continuation.resume(with: result.flatMap { _ in .failure(ClientError.protocolViolation("expected a stream")) })
        case .streaming(let receiver):
            if case .failure(let error) = result { receiver.finish(throwing: error) }
        case nil: break
        }
    }

    /// Fails everything in flight; the connection is unusable afterwards.
    private func fail(_ error: ClientError) {
        guard failure == nil else { return }
        failure = error
        helloWaiter?.resume(throwing: error)
        helloWaiter = nil
        let entries = pending
        pending.removeAll()
        for entry in entries.values {
            switch entry {
            case .unary(let continuation): continuation.resume(throwing: error)
            case .streamHeader(let continuation): continuation.resume(throwing: error)
            case .streaming(let receiver): receiver.finish(throwing: error)
            }
        }
        readSource?.cancel()
    }
}
