import Foundation
import LigasComposition
import LigasDomain
import LigasProtocol
import LigasServer

/// Serves each protocol method from the data engine.
struct EngineRequestHandler: RequestHandler {
    let engine: LigasEngine
    let counters: DaemonCounters
    let version: String
    let startedAt: ContinuousClock.Instant

    func handle(_ request: Request, context: RequestContext) async -> HandlerOutcome {
        let policy = WireMapping.policy(request.cache)
        do {
            switch request.call {
            case .ping:
                return .reply(.ping(PingResult()), source: nil)
            case .describe:
                return .reply(.describe(.ligas), source: nil)
            case .status:
                return .reply(.status(status(context.statistics())), source: nil)
            case .leagues:
                let loaded = await engine.leagues(policy: policy)
                return reply(loaded) { .leagues(Sourced(source: $0, value: $1.map(WireMapping.league))) }
            case .teams(let arguments):
                let loaded = try await engine.teams(league: arguments.league, policy: policy)
                return reply(loaded) { .teams(Sourced(source: $0, value: $1.map(WireMapping.team))) }
            case .players(let arguments):
                let loaded = try await engine.players(team: arguments.team, policy: policy)
                return reply(loaded) { .players(Sourced(source: $0, value: $1.map(WireMapping.player))) }
            case .matches(let arguments):
                let loaded = try await engine.matches(league: arguments.league, team: arguments.team, policy: policy)
                return reply(loaded) { .matches(Sourced(source: $0, value: WireMapping.matches($1))) }
            case .image(let arguments):
                let loaded = try await engine.image(of: WireMapping.imageSubject(arguments), policy: policy)
                counters.record(loaded.origin)
                let stream = loaded.value
                let header = StreamHeader(
                    contentType: stream.contentType, totalSize: stream.expectedLength.map(UInt64.init),
                    source: WireMapping.source(loaded.origin))
                return .stream(header, chunks: WireErrorChunks(base: stream))
            }
        } catch {
            counters.record(error)
            return .failure(WireMapping.errorBody(error))
        }
    }

    private func reply<Value>(_ loaded: Loaded<Value>, _ make: (ResultSource, Value) -> Reply) -> HandlerOutcome {
        counters.record(loaded.origin)
        let source = WireMapping.source(loaded.origin)
        return .reply(make(source, loaded.value), source: source)
    }

    private func status(_ server: ServerStatistics) -> DaemonStatus {
        let counts = counters.snapshot
        return DaemonStatus(
            version: version, uptimeSeconds: UInt64((ContinuousClock.now - startedAt).components.seconds),
            openConnections: UInt64(server.openConnections), inFlightRequests: UInt64(max(0, server.inFlightRequests)),
            requestsServed: server.requestsServed, cacheHits: counts.cacheHits, cacheMisses: counts.cacheMisses,
            remoteFailures: counts.remoteFailures)
    }
}

/// An image stream whose failures are already wire errors, as the server expects.
struct WireErrorChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let base: ImageStream

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

    struct Iterator: AsyncIteratorProtocol {
        var base: ImageStream.Iterator

        mutating func next() async throws -> Data? {
            do { return try await base.next() } catch { throw WireMapping.errorBody(error) }
        }
    }
}
