import Foundation
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

/// Dispatches each request to the function registered for its method (`Methods.all` is the
/// table). The functions get typed arguments and return typed results; a thrown error becomes
/// the error frame that `failure` makes of it.
public struct MethodRouter: RequestHandler {
    public typealias Route = @Sendable (Request, RequestContext) async -> HandlerOutcome
    private var routes: [String: Route] = [:]
    private let failure: @Sendable (any Error) -> ErrorBody

    public init(failure: @escaping @Sendable (any Error) -> ErrorBody) {
        self.failure = failure
    }

    /// Answers `method` with one result.
    public mutating func on<M: RPCMethod>(
        _ method: M.Type, _ answer: @escaping @Sendable (M.Arguments, Request, RequestContext) async throws -> Answer<M.Result>
    ) {
        precondition(!M.streams, "\(M.name) streams: register it with onStream")
        routes[M.name] = { [failure] request, context in
            do {
                let answered = try await answer(Self.arguments(M.self, of: request), request, context)
                return .reply(Reply(M.self, answered.result), source: answered.source)
            } catch {
                return .failure(failure(error))
            }
        }
    }

    /// Answers a streaming `method` with its header and the bytes that follow it. The chunks
    /// must throw `ErrorBody` (see `HandlerOutcome.stream`).
    public mutating func onStream<M: RPCMethod>(
        _ method: M.Type,
        _ answer: @escaping @Sendable (M.Arguments, Request, RequestContext) async throws
            -> (header: M.Result, chunks: any AsyncSequence<Data, any Error> & Sendable)
    ) where M.Result == StreamHeader {
        precondition(M.streams, "\(M.name) does not stream: register it with on")
        routes[M.name] = { [failure] request, context in
            do {
                let (header, chunks) = try await answer(Self.arguments(M.self, of: request), request, context)
                return .stream(header, chunks: chunks)
            } catch {
                return .failure(failure(error))
            }
        }
    }

    /// Methods of the table nothing answers (the daemon refuses to start with any).
    public var unrouted: [String] {
        Methods.all.map { $0.name }.filter { routes[$0] == nil }
    }

    public func handle(_ request: Request, context: RequestContext) async -> HandlerOutcome {
        guard let route = routes[request.method.name] else {
            return .failure(ErrorBody(
                code: .unknownMethod, message: "method \"\(request.method.name)\" is not served",
                details: ["method": request.method.name]))
        }
        return await route(request, context)
    }

    private static func arguments<M: RPCMethod>(_ method: M.Type, of request: Request) -> M.Arguments {
        guard let arguments = request.call.arguments(of: M.self) else {
            preconditionFailure("a \(request.method.name) request routed to \(M.name)")
        }
        return arguments
    }
}
