import FoundationEssentials
import LigasProtocol

/// A method's answer: its result, and where a data result came from (for the log).
public struct Answer<Result: Sendable>: Sendable {
    public var result: Result
    public var source: ResultSource?

    public init(_ result: Result, source: ResultSource? = nil) {
        self.result = result
        self.source = source
    }
}

/// Dispatches each request to the functions registered for its method (`Methods.all` is the
/// table). The functions get typed arguments and return typed results; a thrown error becomes
/// the error frame that `failure` makes of it.
public struct MethodRouter: RequestHandler {
    private struct Route: Sendable {
        /// Answers ready now, if any (see `RequestHandler.answerNow`).
        var now: (@Sendable (Request, RequestContext) -> HandlerOutcome?)?
        var later: @Sendable (Request, RequestContext) async -> HandlerOutcome
    }

    private var routes: [String: Route] = [:]
    private let failure: @Sendable (any Error) -> ErrorBody

    public init(failure: @escaping @Sendable (any Error) -> ErrorBody) {
        self.failure = failure
    }

    /// Answers `method` with one result, waiting as long as it takes.
    public mutating func on<M: RPCMethod>(
        _ method: M.Type, _ answer: @escaping @Sendable (M.Arguments, Request, RequestContext) async throws -> Answer<M.Result>
    ) {
        precondition(!M.streams, "\(M.name) streams: register it with onStream")
        routes[M.name] = Route(now: nil, later: waiting(method, answer))
    }

    /// Answers `method` at once, always: nothing it does waits (`ping`, `status`, `describe`).
    public mutating func onNow<M: RPCMethod>(
        _ method: M.Type, _ answer: @escaping @Sendable (M.Arguments, Request, RequestContext) throws -> Answer<M.Result>
    ) {
        precondition(!M.streams, "\(M.name) streams: register it with onStream")
        let now = { @Sendable [failure] (request: Request, context: RequestContext) -> HandlerOutcome? in
            do {
                let answered = try answer(Self.arguments(M.self, of: request), request, context)
                return .reply(Reply(M.self, answered.result), source: answered.source)
            } catch {
                return .failure(failure(error))
            }
        }
        routes[M.name] = Route(now: now) { request, context in now(request, context)! }
    }

    /// Answers `method` at once when `now` has its result ready (a cache hit in memory: its
    /// encoding is kept, see `EncodedAnswers`), else with `later`.
    public mutating func on<M: RPCMethod>(
        _ method: M.Type,
        now: @escaping @Sendable (M.Arguments, Request, RequestContext) throws -> Answer<M.Result>?,
        _ later: @escaping @Sendable (M.Arguments, Request, RequestContext) async throws -> Answer<M.Result>
    ) {
        precondition(!M.streams, "\(M.name) streams: register it with onStream")
        let encodedAnswers = EncodedAnswers<M>()
        let immediate = { @Sendable [failure] (request: Request, context: RequestContext) -> HandlerOutcome? in
            do {
                let arguments = Self.arguments(M.self, of: request)
                guard let answered = try now(arguments, request, context) else { return nil }
                let payload = try encodedAnswers.payload(of: answered.result, answering: arguments)
                return .encodedReply(payload, source: answered.source)
            } catch {
                return .failure(failure(error))
            }
        }
        routes[M.name] = Route(now: immediate, later: waiting(method, later))
    }

    /// The route of an answer that may wait.
    private func waiting<M: RPCMethod>(
        _ method: M.Type, _ answer: @escaping @Sendable (M.Arguments, Request, RequestContext) async throws -> Answer<M.Result>
    ) -> @Sendable (Request, RequestContext) async -> HandlerOutcome {
        { [failure] request, context in
            do {
                let answered = try await answer(Self.arguments(M.self, of: request), request, context)
                return .reply(Reply(M.self, answered.result), source: answered.source)
            } catch {
                return .failure(failure(error))
            }
        }
    }

    /// Answers a streaming `method` with its header and the bytes that follow it. The chunks
    /// must throw `ErrorBody` (see `HandlerOutcome.stream`). A stream made of a `ReadyStream`
    /// is answered as one (`HandlerOutcome.readyStream`).
    public mutating func onStream<M: RPCMethod>(
        _ method: M.Type,
        _ answer: @escaping @Sendable (M.Arguments, Request, RequestContext) async throws -> OutgoingStream
    ) where M.Result == StreamHeader {
        precondition(M.streams, "\(M.name) does not stream: register it with on")
        routes[M.name] = Route(now: nil) { [failure] request, context in
            do {
                let outgoing = try await answer(Self.arguments(M.self, of: request), request, context)
                return outgoing.ready.map { .readyStream($0) } ?? .stream(outgoing)
            } catch {
                return .failure(failure(error))
            }
        }
    }

    /// Answers a streaming `method` at once when `now` has all of its bytes in memory (a small
    /// cached image), else with `later`.
    public mutating func onStream<M: RPCMethod>(
        _ method: M.Type,
        now: @escaping @Sendable (M.Arguments, Request, RequestContext) -> ReadyStream?,
        _ later: @escaping @Sendable (M.Arguments, Request, RequestContext) async throws -> OutgoingStream
    ) where M.Result == StreamHeader {
        onStream(method, later)
        routes[M.name]?.now = { request, context in
            now(Self.arguments(M.self, of: request), request, context).map { .readyStream($0) }
        }
    }

    /// Methods of the table nothing answers (the daemon refuses to start with any).
    public var unrouted: [String] {
        Methods.all.map { $0.name }.filter { routes[$0] == nil }
    }

    public func answerNow(_ request: Request, context: RequestContext) -> HandlerOutcome? {
        guard let route = routes[request.method.name] else { return unknown(request) }
        return route.now?(request, context)
    }

    public func handle(_ request: Request, context: RequestContext) async -> HandlerOutcome {
        guard let route = routes[request.method.name] else { return unknown(request) }
        return await route.later(request, context)
    }

    private func unknown(_ request: Request) -> HandlerOutcome {
        .failure(ErrorBody(
            code: .unknownMethod, message: "method \"\(request.method.name)\" is not served",
            details: ["method": request.method.name]))
    }

    private static func arguments<M: RPCMethod>(_ method: M.Type, of request: Request) -> M.Arguments {
        guard let arguments = request.call.arguments(of: M.self) else {
            preconditionFailure("a \(request.method.name) request routed to \(M.name)")
        }
        return arguments
    }
}
