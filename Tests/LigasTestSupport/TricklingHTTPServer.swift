import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A slow remote on 127.0.0.1: the paths `trickles` picks get a chunked body that starts with
/// `first` at once and then gets one `chunk` per `interval`, for as long as the client stays
/// (so a download of it is reliably in progress, and never reaches any size cap within a test);
/// every other path is served from the files under `root`, like `LoopbackHTTPServer`'s `.file`.
public final class TricklingHTTPServer: Sendable {
    public let port: Int
    private let channel: any Channel
    private let state: NIOLockedValueBox<State>

    struct State {
        var trickling = 0
        var trickleEnded = 0
        var connections: [ObjectIdentifier: any Channel] = [:]
    }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    /// Trickled bodies begun, and those whose client went away.
    public var trickles: (started: Int, ended: Int) { state.withLockedValue { ($0.trickling, $0.trickleEnded) } }

    public static func start(
        root: URL, first: Data, chunk: Data, every interval: Duration = .milliseconds(20), contentType: String = "image/png",
        trickles: @escaping @Sendable (String) -> Bool = { $0.hasSuffix(".png") }
    ) async throws -> TricklingHTTPServer {
        let state = NIOLockedValueBox(State())
        let settings = Handler.Settings(
            root: root.standardizedFileURL, first: first, chunk: chunk,
            interval: .nanoseconds(Int64(interval.components.seconds) * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000),
            contentType: contentType, trickles: trickles)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                state.withLockedValue { $0.connections[ObjectIdentifier(channel)] = channel }
                channel.closeFuture.whenComplete { _ in
                    state.withLockedValue { $0.connections[ObjectIdentifier(channel)] = nil }
                }
                return channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Handler(settings: settings, state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return TricklingHTTPServer(channel: channel, state: state)
    }

    private init(channel: any Channel, state: NIOLockedValueBox<State>) {
        self.channel = channel
        self.state = state
        self.port = channel.localAddress?.port ?? 0
    }

    /// Stops listening and drops every open connection. Idempotent.
    public func shutdown() async throws {
        let open = state.withLockedValue { Array($0.connections.values) }
        for connection in open { try? await connection.close() }
        if channel.isActive { try await channel.close() }
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        struct Settings: Sendable {
            let root: URL
            let first: Data
            let chunk: Data
            let interval: TimeAmount
            let contentType: String
            let trickles: @Sendable (String) -> Bool
        }

        let settings: Settings
        let state: NIOLockedValueBox<State>
        var path = "/"
        var trickle: RepeatedTask?

        init(settings: Settings, state: NIOLockedValueBox<State>) {
            self.settings = settings
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): path = head.uri
            case .body: break
            case .end: reply(context: context)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if let trickle {
                trickle.cancel()
                self.trickle = nil
                state.withLockedValue { $0.trickleEnded += 1 }
            }
            context.fireChannelInactive()
        }

        private func reply(context: ChannelHandlerContext) {
            let relative = path.split(separator: "?").first.map(String.init) ?? path
            guard !settings.trickles(relative) else { return startTrickle(context: context) }
            let file = settings.root.appendingPathComponent(relative.removingPercentEncoding ?? relative).standardizedFileURL
            guard file.path.hasPrefix(settings.root.path), let data = FileManager.default.contents(atPath: file.path) else {
                return send(status: .notFound, body: Data(), contentType: "text/plain", context: context)
            }
            send(status: .ok, body: data, contentType: file.pathExtension == "json" ? "application/json" : "application/octet-stream", context: context)
        }

        private func startTrickle(context: ChannelHandlerContext) {
            state.withLockedValue { $0.trickling += 1 }
            let headers = HTTPHeaders([("content-type", settings.contentType), ("transfer-encoding", "chunked")])
            context.write(wrapOutboundOut(.head(.init(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: settings.first)))), promise: nil)
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let chunk = ByteBuffer(bytes: settings.chunk)
            trickle = context.eventLoop.scheduleRepeatedTask(initialDelay: settings.interval, delay: settings.interval) { _ in
                let (handler, context) = bound.value
                guard context.channel.isActive else { return }
                context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
            }
        }

        private func send(status: HTTPResponseStatus, body: Data, contentType: String, context: ChannelHandlerContext) {
            let headers = HTTPHeaders([("content-type", contentType), ("content-length", "\(body.count)")])
            context.write(wrapOutboundOut(.head(.init(version: .http1_1, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
