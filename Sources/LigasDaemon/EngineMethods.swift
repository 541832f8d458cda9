import FoundationEssentials
import LigasComposition
import LigasDomain
import LigasProtocol
import LigasServer

/// Which engine call answers each protocol method: the daemon's side of the method table.
enum EngineMethods {
    static func router(
        engine: LigasEngine, counters: DaemonCounters, version: String, startedAt: ContinuousClock.Instant
    ) -> MethodRouter {
        var router = MethodRouter { error in
            counters.record(error)
            return WireMapping.errorBody(error)
        }
        router.onNow(Methods.Ping.self) { _, _, _ in Answer(PingResult()) }
        router.onNow(Methods.Describe.self) { _, _, _ in Answer(.ligas) }
        let currentStatus = { @Sendable (context: RequestContext, inFlightItself: Bool) -> DaemonStatus in
            var server = context.statistics()
            // The status reports the others: in a task, it is in flight itself.
            if inFlightItself { server.inFlightRequests -= 1 }
            return Self.status(server, counters: counters, version: version, startedAt: startedAt)
        }
        if engine.hasRequestBudget {
            // The quota is read from the cache file: in a task, like any cache read, never on
            // the event loop that every connection shares.
            router.on(Methods.Status.self) { _, _, context in
                var answer = currentStatus(context, true)
                answer.quota = engine.requestBudgets().map(WireMapping.quota)
                return Answer(answer)
            }
        } else {
            router.onNow(Methods.Status.self) { _, _, context in Answer(currentStatus(context, false)) }
        }
        // Cache first: answered at once when the cache already holds them in memory.
        // A list answered again from the engine's memory is not mapped again (see `WireForms`).
        let leagueForms = WireForms<String, LigasDomain.League, LigasProtocol.League>(WireMapping.league)
        let leagues = { @Sendable (loaded: Loaded<[LigasDomain.League]>) in sourced(loaded, counters) { leagueForms.wire($0, for: "") } }
        router.on(Methods.Leagues.self, now: { _, request, _ in engine.leaguesNow(policy: policy(request)).map(leagues) }) {
            _, request, _ in leagues(await engine.leagues(policy: policy(request)))
        }
        let teamForms = WireForms<String, LigasDomain.Team, LigasProtocol.Team>(WireMapping.team)
        let teams = { @Sendable (loaded: Loaded<[LigasDomain.Team]>, league: String) in
            sourced(loaded, counters) { teamForms.wire($0, for: league) }
        }
        router.on(Methods.Teams.self, now: { arguments, request, _ in
            engine.teamsNow(league: arguments.league, policy: policy(request)).map { teams($0, arguments.league) }
        }) { arguments, request, _ in
            teams(try await engine.teams(league: arguments.league, policy: policy(request)), arguments.league)
        }
        let playerForms = WireForms<String, LigasDomain.Player, LigasProtocol.Player>(WireMapping.player)
        let players = { @Sendable (loaded: Loaded<[LigasDomain.Player]>, team: String) in
            sourced(loaded, counters) { playerForms.wire($0, for: team) }
        }
        router.on(Methods.Players.self, now: { arguments, request, _ in
            engine.playersNow(team: arguments.team, policy: policy(request)).map { players($0, arguments.team) }
        }) { arguments, request, _ in
            players(try await engine.players(team: arguments.team, policy: policy(request)), arguments.team)
        }
        router.on(Methods.Matches.self) { arguments, request, _ in
            let loaded = try await engine.matches(league: arguments.league, team: arguments.team, policy: policy(request))
            return sourced(loaded, counters, WireMapping.matches)
        }
        let standingForms = WireForms<String, LigasDomain.Standing, LigasProtocol.Standing>(WireMapping.standing)
        let standings = { @Sendable (loaded: Loaded<[LigasDomain.Standing]>, league: String) in
            sourced(loaded, counters) { standingForms.wire($0, for: league) }
        }
        router.on(Methods.Standings.self, now: { arguments, request, _ in
            engine.standingsNow(league: arguments.league, policy: policy(request)).map { standings($0, arguments.league) }
        }) { arguments, request, _ in
            standings(try await engine.standings(league: arguments.league, policy: policy(request)), arguments.league)
        }
        router.onStream(Methods.Image.self, now: { arguments, request, _ in
            guard let loaded = engine.imageNow(of: WireMapping.imageSubject(arguments), policy: policy(request)) else { return nil }
            counters.record(loaded.origin)
            let remembered = loaded.value
            let header = StreamHeader(
                contentType: remembered.image.contentType, totalSize: UInt64(remembered.image.bytes.count),
                source: WireMapping.source(loaded.origin))
            return ReadyStream(header: header, bytes: remembered.image.bytes, sha256: remembered.sha256)
        }) { arguments, request, _ in
            let loaded = try await engine.image(of: WireMapping.imageSubject(arguments), policy: policy(request))
            counters.record(loaded.origin)
            let stream = loaded.value
            let header = StreamHeader(
                contentType: stream.contentType, totalSize: stream.expectedLength.map(UInt64.init),
                source: WireMapping.source(loaded.origin))
            // A cache hit whose digest is stored, in a cache file: the connection reads its pieces
            // itself, with no task per chunk (see Benchmarks/HISTORY.md, the twelfth stop). Not
            // from a cache in memory, where a read waits for any write under way: that would hold
            // up every connection.
            if let stored = stream.stored, let sha256 = stored.sha256, !stored.pieceMayWaitForWrites {
                return OutgoingStream(ReadyStream(header: header, pieceCount: stored.pieceCount, sha256: sha256) { index in
                    do { return try stored.piece(index) } catch { throw WireMapping.errorBody(error) }
                })
            }
            return OutgoingStream(header: header, chunks: WireErrorChunks(base: stream), sha256: stream.sha256)
        }
        return router
    }

    private static func policy(_ request: Request) -> LoadPolicy {
        WireMapping.policy(request.cache)
    }

    /// A data result with where it came from, counted as a cache hit or miss.
    private static func sourced<Value, Wire>(
        _ loaded: Loaded<Value>, _ counters: DaemonCounters, _ map: (Value) -> Wire
    ) -> Answer<Sourced<Wire>> {
        counters.record(loaded.origin)
        let source = WireMapping.source(loaded.origin)
        return Answer(Sourced(source: source, value: map(loaded.value)), source: source)
    }

    private static func status(
        _ server: ServerStatistics, counters: DaemonCounters, version: String, startedAt: ContinuousClock.Instant
    ) -> DaemonStatus {
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
