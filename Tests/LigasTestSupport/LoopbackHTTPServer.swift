import Foundation
import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP/1.1 server on 127.0.0.1 (random port) for remote and acceptance tests.
///
/// Each request path is answered by the `Reply` the test's router picks, including the ways a
/// remote misbehaves: errors, stalls, truncated and endless bodies, lying lengths.
public final class LoopbackHTTPServer: Sendable {
    public enum Reply: Sendable {
        case ok(Data, contentType: String)
        case status(Int, body: Data = Data())
        /// Never answers: for timeouts.
        case stall
        /// Announces `declaredLength` bytes, sends `body`, then closes the connection.
        case truncated(Data, declaredLength: Int, contentType: String = "application/json")
        /// A chunked body that never ends (until the client goes away).
        case endless(chunk: Data, contentType: String)
        /// A chunked body that starts with `first` and then gets one `chunk` per `interval`, for
        /// as long as the client stays: a download reliably in progress that never hits a size cap.
        case trickle(first: Data, chunk: Data, every: Duration, contentType: String)
        /// `302 Found` to `location` (a path or a URL): chain paths to one another for a redirect loop.
        case redirect(to: String)
        /// Serves files from a directory, like a static web server (404 when missing).
        case file(root: URL)
        /// Holds the request until the test opens the gate, then answers with `reply`.
        indirect case gated(Gate, then: Reply)
        /// `reply` (an `ok` or a `status`) with these response headers added.
        indirect case headers([String: String], Reply)
        /// Closes the connection without answering: a server that closed a kept-alive
        /// connection just as the client sent its next request on it.
        case hangUp
    }

    public struct RecordedRequest: Sendable, Hashable {
        public let path: String
        public let headers: [String: String]
        /// 1 for the first request on its connection, 2 for the next one on it (kept alive), …
        public var numberOnConnection = 1
    }

    public let port: Int
    private let channel: any Channel
    private let state: Shared<State>

    struct State {
        var requests: [RecordedRequest] = []
        var disconnects = 0
        var connections: [ObjectIdentifier: any Channel] = [:]
        var disconnectWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// The socket holding the port after `shutdown`.
        var reservedPort: Int32?
    }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    public static func start(_ route: @escaping @Sendable (String) -> Reply) async throws -> LoopbackHTTPServer {
        try await startRoutingRequests { route($0.path) }
    }

    /// A server whose router also sees each request's headers (names in lower case).
    public static func startRoutingRequests(_ route: @escaping @Sendable (RecordedRequest) -> Reply) async throws -> LoopbackHTTPServer {
        let state = Shared(State())
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                state.withLock { $0.connections[ObjectIdentifier(channel)] = channel }
                channel.closeFuture.whenComplete { _ in
                    state.withLock { $0.connections[ObjectIdentifier(channel)] = nil }
                }
                return channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Handler(route: route, state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return LoopbackHTTPServer(channel: channel, state: state)
    }

    private init(channel: any Channel, state: Shared<State>) {
        self.channel = channel
        self.state = state
        self.port = channel.localAddress?.port ?? 0
    }

    public var requests: [RecordedRequest] { state.withLock { $0.requests } }
    public var requestCount: Int { requests.count }
    /// Client connections that have closed so far.
    public var disconnects: Int { state.withLock { $0.disconnects } }

    /// Suspends until at least `count` client connections have closed.
    public func waitForDisconnects(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.disconnects >= count { return true }
                state.disconnectWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Stops listening and drops every open connection: the remote is down. Idempotent.
    ///
    /// The port then stays bound (not listening) until this object goes away: connecting to it is
    /// refused at once, and another test's server cannot be handed the same port meanwhile and
    /// answer in its place (which once made an "offline" daemon find a live remote).
    public func shutdown() async throws {
        let open = state.withLock { Array($0.connections.values) }
        for connection in open { try? await connection.close() }
        guard channel.isActive else { return }
        try await channel.close()
        reservePort()
    }

    private func reservePort() {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if bound == 0 { state.withLock { $0.reservedPort = fd } } else { close(fd) }
    }

    deinit {
        if let fd = state.value.reservedPort { close(fd) }
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let route: @Sendable (RecordedRequest) -> Reply
        let state: Shared<State>
        var path = "/"
        var request = RecordedRequest(path: "/", headers: [:])
        var requestsOnConnection = 0
        var extraHeaders: [String: String] = [:]
        var trickle: RepeatedTask?

        init(route: @escaping @Sendable (RecordedRequest) -> Reply, state: Shared<State>) {
            self.route = route
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                path = head.uri
                let headers = Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
                requestsOnConnection += 1
                request = RecordedRequest(path: head.uri, headers: headers, numberOnConnection: requestsOnConnection)
                state.withLock { [request] in $0.requests.append(request) }
            case .body:
                break
            case .end:
                extraHeaders = [:]
                reply(route(request), context: context)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            trickle?.cancel()
            trickle = nil
            let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.disconnects += 1
                let disconnects = state.disconnects
                defer { state.disconnectWaiters.removeAll { $0.count <= disconnects } }
                return state.disconnectWaiters.filter { $0.count <= disconnects }.map(\.continuation)
            }
            ready.forEach { $0.resume() }
            context.fireChannelInactive()
        }

        private func reply(_ reply: Reply, context: ChannelHandlerContext) {
            switch reply {
            case .ok(let body, let contentType):
                send(status: .ok, body: body, headers: ["content-type": contentType], context: context)
            case .status(let code, let body):
                send(status: HTTPResponseStatus(statusCode: code), body: body, headers: [:], context: context)
            case .stall:
                break
            case .truncated(let body, let declaredLength, let contentType):
                var headers = HTTPHeaders([("content-type", contentType), ("content-length", "\(declaredLength)")])
                headers.add(name: "connection", value: "close")
                context.write(wrapOutboundOut(.head(.init(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))))
                    .whenComplete { _ in bound.value.close(promise: nil) }
            case .endless(let chunk, let contentType):
                let headers = HTTPHeaders([("content-type", contentType), ("transfer-encoding", "chunked")])
                context.writeAndFlush(wrapOutboundOut(.head(.init(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                writeForever(ByteBuffer(bytes: chunk), context: context)
            case .trickle(let first, let chunk, let interval, let contentType):
                let headers = HTTPHeaders([("content-type", contentType), ("transfer-encoding", "chunked")])
                context.write(wrapOutboundOut(.head(.init(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: first)))), promise: nil)
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                let buffer = ByteBuffer(bytes: chunk)
                let delay = TimeAmount.nanoseconds(
                    interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000)
                trickle = context.eventLoop.scheduleRepeatedTask(initialDelay: delay, delay: delay) { _ in
                    let (handler, context) = bound.value
                    guard context.channel.isActive else { return }
                    context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
                }
            case .hangUp:
                context.close(promise: nil)
            case .redirect(let location):
                send(status: .found, body: Data(), headers: ["location": location], context: context)
            case .headers(let headers, let then):
                extraHeaders.merge(headers) { $1 }
                self.reply(then, context: context)
            case .gated(let gate, let then):
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                let eventLoop = context.eventLoop
                Task {
                    await gate.wait()
                    eventLoop.execute {
                        let (handler, context) = bound.value
                        handler.reply(then, context: context)
                    }
                }
            case .file(let root):
                let relative = path.split(separator: "?").first.map(String.init) ?? path
                let file = root.appendingPathComponent(relative.removingPercentEncoding ?? relative).standardizedFileURL
                guard file.path.hasPrefix(root.standardizedFileURL.path), let data = FileManager.default.contents(atPath: file.path) else {
                    return send(status: .notFound, body: Data(), headers: [:], context: context)
                }
                let type = file.pathExtension == "png" ? "image/png" : file.pathExtension == "json" ? "application/json" : "application/octet-stream"
                send(status: .ok, body: data, headers: ["content-type": type], context: context)
            }
        }

        private func writeForever(_ chunk: ByteBuffer, context: ChannelHandlerContext) {
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk)))).whenComplete { result in
                let (handler, context) = bound.value
                if case .success = result, context.channel.isActive { handler.writeForever(chunk, context: context) }
            }
        }

        private func send(status: HTTPResponseStatus, body: Data, headers: [String: String], context: ChannelHandlerContext) {
            var responseHeaders = HTTPHeaders(headers.merging(extraHeaders) { $1 }.map { ($0.key, $0.value) })
            responseHeaders.add(name: "content-length", value: "\(body.count)")
            context.write(wrapOutboundOut(.head(.init(version: .http1_1, status: status, headers: responseHeaders))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
