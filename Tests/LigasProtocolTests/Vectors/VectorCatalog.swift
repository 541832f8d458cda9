import Foundation
import LigasProtocol
import LigasServer

/// What a golden vector's payload is, typed.
enum VectorPayload {
    case hello(Hello)
    case request(Request)
    case reply(Reply)
    case streamHeader(StreamHeader)
    case error(ErrorBody)
    case streamChunk([UInt8])
    case streamEnd(StreamEnd)
    case cancel
}

struct VectorSpec {
    let name: String
    let description: String
    let requestID: UInt32
    let payload: VectorPayload

    var kind: FrameKind {
        switch payload {
        case .hello: .hello
        case .request: .request
        case .reply, .streamHeader: .response
        case .error: .error
        case .streamChunk: .streamChunk
        case .streamEnd: .streamEnd
        case .cancel: .cancel
        }
    }

    /// The method whose request or result this is (responses need it to be decoded).
    var method: (any RPCMethod.Type)? {
        switch payload {
        case .request(let request): request.method
        case .reply(let reply): reply.method
        case .streamHeader: Methods.Image.self
        default: nil
        }
    }

    var flags: FrameFlags {
        if case .streamHeader = payload { return .streamFollows }
        return []
    }

    func frameBytes(using encoder: FrameEncoder = FrameEncoder()) throws -> [UInt8] {
        var out: [UInt8] = []
        switch payload {
        case .hello(let hello): try encoder.appendHello(hello, to: &out)
        case .request(let request): try encoder.appendRequest(id: requestID, request, to: &out)
        case .reply(let reply): try encoder.appendResponse(id: requestID, reply, to: &out)
        case .streamHeader(let header): try encoder.appendStreamHeader(id: requestID, header, to: &out)
        case .error(let body): try encoder.appendError(id: requestID, body, to: &out)
        case .streamChunk(let bytes): try encoder.appendStreamChunk(id: requestID, bytes, to: &out)
        case .streamEnd(let end): try encoder.appendStreamEnd(id: requestID, end, to: &out)
        case .cancel: try encoder.appendCancel(id: requestID, to: &out)
        }
        return out
    }
}

/// Every golden vector. Request ids follow the worked example in PROTOCOL.md.
enum VectorCatalog {
    static let all: [VectorSpec] = handshake + calls + imageStreams + errors

    static let handshake = [
        VectorSpec(
            name: "hello-client",
            description: "Client hello: speaks version 1, accepts frames up to 1 MiB, asks for tiny 32-byte stream chunks (to keep the worked example short).",
            requestID: 0, payload: .hello(Sample.clientHello)
        ),
        VectorSpec(
            name: "hello-client-invalid-limits",
            description: "An invalid client hello: maxFrameSize 4095 is below the minimum of 4096. It decodes, but the server refuses it with error-hello-refused and closes.",
            requestID: 0, payload: .hello(Sample.clientHelloInvalidLimits)
        ),
        VectorSpec(
            name: "hello-server",
            description: "Server hello: chose version 1; accepts 1 MiB frames and 32 requests in flight.",
            requestID: 0, payload: .hello(Sample.serverHello)
        ),
    ]

    static let calls = [
        VectorSpec(name: "request-ping", description: "ping, no arguments.", requestID: 9, payload: .request(Request(Methods.Ping.self))),
        VectorSpec(name: "response-ping", description: "ping result: an empty map.", requestID: 9, payload: .reply(Reply(Methods.Ping.self, PingResult()))),
        VectorSpec(name: "request-leagues", description: "leagues, no arguments.", requestID: 4, payload: .request(Request(Methods.Leagues.self))),
        VectorSpec(
            name: "response-leagues", description: "Two leagues, served from the cache.",
            requestID: 4, payload: .reply(Reply(Methods.Leagues.self, LeaguesResult(source: .cache, value: Sample.leagues)))
        ),
        VectorSpec(
            name: "request-teams", description: "teams of LigaPro Serie A with the default cache policy.",
            requestID: 1, payload: .request(Request(Methods.Teams.self, TeamsArguments(league: "ligapro-serie-a")))
        ),
        VectorSpec(
            name: "request-teams-refresh-deadline",
            description: "teams, bypassing a fresh cache (refresh) and giving up after 1500 ms.",
            requestID: 5,
            payload: .request(Request(Methods.Teams.self, TeamsArguments(league: "ligapro-serie-a"), deadlineMs: 1500, cache: .refresh))
        ),
        VectorSpec(
            name: "response-teams", description: "Three teams, fetched from the remote source.",
            requestID: 1, payload: .reply(Reply(Methods.Teams.self, TeamsResult(source: .remote, value: Sample.teams)))
        ),
        VectorSpec(
            name: "request-players", description: "players of LDU Quito, offline only.",
            requestID: 6, payload: .request(Request(Methods.Players.self, PlayersArguments(team: "ldu-quito"), cache: .offline))
        ),
        VectorSpec(
            name: "response-players",
            description: "A coach (no number, no photo), a goalkeeper with every optional field, a forward without nationality.",
            requestID: 6, payload: .reply(Reply(Methods.Players.self, PlayersResult(source: .cache, value: Sample.players)))
        ),
        VectorSpec(
            name: "request-matches", description: "matches of Serie A, only those of LDU Quito.",
            requestID: 7,
            payload: .request(Request(Methods.Matches.self, MatchesArguments(league: "ligapro-serie-a", team: "ldu-quito")))
        ),
        VectorSpec(
            name: "response-matches",
            description: "One previous and two upcoming matches; the last kick-off has milliseconds, so its date is a float.",
            requestID: 7, payload: .reply(Reply(Methods.Matches.self, MatchesResult(source: .remote, value: Sample.matches)))
        ),
        VectorSpec(
            name: "response-matches-scores",
            description: "Previous matches with homeScore and awayScore (optional keys, absent when the source gives no score): a win and a goalless draw.",
            requestID: 7, payload: .reply(Reply(Methods.Matches.self, MatchesResult(source: .cache, value: Sample.matchesWithScores)))
        ),
        VectorSpec(
            name: "request-standings", description: "standings of LigaPro Serie A.",
            requestID: 12, payload: .request(Request(Methods.Standings.self, StandingsArguments(league: "ligapro-serie-a")))
        ),
        VectorSpec(
            name: "response-standings",
            description: "The top three of a league table: rank, team, played, won, drawn, lost, goals for and against, points.",
            requestID: 12, payload: .reply(Reply(Methods.Standings.self, StandingsResult(source: .remote, value: Sample.standings)))
        ),
        VectorSpec(name: "request-status", description: "status, no arguments.", requestID: 8, payload: .request(Request(Methods.Status.self))),
        VectorSpec(name: "response-status", description: "Daemon counters.", requestID: 8, payload: .reply(Reply(Methods.Status.self, Sample.status))),
        VectorSpec(
            name: "response-status-quota",
            description: "Daemon counters with each RapidAPI provider's requests this month: used, budget, remaining, and what the provider reported (when it did).",
            requestID: 8, payload: .reply(Reply(Methods.Status.self, Sample.statusWithQuota))
        ),
        VectorSpec(name: "request-describe", description: "describe, no arguments.", requestID: 10, payload: .request(Request(Methods.Describe.self))),
        describeResponse,
    ]

    static let describeResponse = VectorSpec(
        name: "response-describe", description: "The full interface description of protocol version 1.",
        requestID: 10, payload: .reply(Reply(Methods.Describe.self, .ligas)))

    /// The describe response's frame length `L` (the length prefix counts the frame without
    /// itself): what error-result-too-large reports, and PROTOCOL.md quotes.
    static var describeFrameLength: Int {
        get throws { try describeResponse.frameBytes().count - 4 }
    }

    static let imageStreams = [
        VectorSpec(
            name: "request-image-team", description: "image: the logo of a team, by team id.",
            requestID: 2, payload: .request(Request(Methods.Image.self, .team("ldu-quito")))
        ),
        VectorSpec(
            name: "request-image-league", description: "image: the logo of a league, by league id.",
            requestID: 3, payload: .request(Request(Methods.Image.self, .league("ligapro-serie-a")))
        ),
        VectorSpec(
            name: "request-image-player", description: "image: the photo of a player, by player id.",
            requestID: 11, payload: .request(Request(Methods.Image.self, .player("ldu-quito-1")))
        ),
        VectorSpec(
            name: "request-image-url", description: "image: by a URL the daemon served in its own data.",
            requestID: 12,
            payload: .request(Request(Methods.Image.self, .url(Sample.url("https://media.ligapro.ec/logos/equipos/ldu-quito.png"))))
        ),
        VectorSpec(
            name: "stream-header-team-logo",
            description: "Response with flag streamFollows: a 68-byte PNG from the cache.",
            requestID: 2, payload: .streamHeader(StreamHeader(contentType: "image/png", totalSize: 68, source: .cache))
        ),
        VectorSpec(
            name: "stream-chunk-1", description: "First 32 raw bytes of the PNG (not CBOR).",
            requestID: 2, payload: .streamChunk(Array(Sample.pngImage[0..<32]))
        ),
        VectorSpec(
            name: "stream-chunk-2", description: "Bytes 32..<64 of the PNG.",
            requestID: 2, payload: .streamChunk(Array(Sample.pngImage[32..<64]))
        ),
        VectorSpec(
            name: "stream-chunk-3", description: "The last 4 bytes of the PNG.",
            requestID: 2, payload: .streamChunk(Array(Sample.pngImage[64..<68]))
        ),
        VectorSpec(
            name: "stream-end-team-logo", description: "End of stream: 68 bytes and their SHA-256.",
            requestID: 2, payload: .streamEnd(StreamEnd(totalBytes: 68, sha256: Sample.pngSHA256))
        ),
        VectorSpec(
            name: "stream-header-league-logo",
            description: "Response with streamFollows, size unknown in advance, fetched from the remote source.",
            requestID: 3, payload: .streamHeader(StreamHeader(contentType: "image/png", source: .remote))
        ),
        VectorSpec(
            name: "stream-chunk-league-logo-1", description: "First chunk of the league logo stream.",
            requestID: 3, payload: .streamChunk(Array(Sample.pngImage[0..<32]))
        ),
        VectorSpec(
            name: "cancel-league-logo", description: "Client cancels request 3: the server sends nothing more for it.",
            requestID: 3, payload: .cancel
        ),
    ]

    // Computed once here: a vector whose description and payload must agree with another's.
    private static let describeLength = (try? describeFrameLength) ?? 0

    static let errors = [
        VectorSpec(
            name: "error-not-found", description: "Request-level error: the team does not exist.",
            requestID: 13,
            payload: .error(ErrorBody(code: .notFound, message: "no team with id \"emelec-b\""))
        ),
        VectorSpec(
            name: "error-bad-request", description: "Request-level error with the path of the offending field.",
            requestID: 14,
            payload: .error(ErrorBody(code: .badRequest, message: "missing required key args.league", details: ["path": "args.league"]))
        ),
        VectorSpec(
            name: "error-bad-request-truncated",
            description: "Request-level error for a payload that is not well-formed CBOR (request-teams cut one byte short): details.offset instead of details.path.",
            requestID: 15,
            payload: .error(ErrorBody(
                code: .badRequest, message: "length at byte 52 exceeds the remaining input", details: ["offset": "52"]
            ))
        ),
        VectorSpec(
            name: "error-hello-refused",
            description: "Connection-level error (request id 0) answering hello-client-invalid-limits, sent before closing.",
            requestID: 0,
            payload: .error(ErrorBody(
                code: .badFrame, message: "maxFrameSize 4095 is below 4096", details: ["path": "maxFrameSize"]
            ))
        ),
        VectorSpec(
            name: "error-frame-too-large",
            description: "Connection-level error (request id 0) sent before closing: a frame announced 16 MiB.",
            requestID: 0,
            payload: .error(ErrorBody(code: .frameTooLarge, message: "frame of 16777216 bytes exceeds the limit of 1048576"))
        ),
        VectorSpec(
            name: "error-quota-exceeded",
            description: "Request-level error: FlashLive's monthly budget is spent and nothing fresh is cached; the connection stays open.",
            requestID: 6,
            payload: .error(ErrorBody(code: .quotaExceeded, message: "flashlive: this month's budget of 500 requests is spent (2026-11); cached data still answers"))
        ),
        VectorSpec(
            name: "error-result-too-large",
            description: "Request-level error in place of the describe response (a \(describeLength)-byte frame, see response-describe) for a client that accepts 4096-byte frames; the request ends, the connection stays open.",
            requestID: 10,
            payload: .error(.resultTooLarge(bytes: describeLength, maxFrameSize: 4096))
        ),
        VectorSpec(
            name: "error-request-id-in-flight",
            description: "Connection-level error (request id 0) sent before closing: a request reused id 9 while request 9 was in flight.",
            requestID: 0,
            payload: .error(.requestIDInFlight(9))
        ),
        VectorSpec(
            name: "error-cut-off",
            description: "Request-level error sent just before the daemon closes the connection: request 4 was still in flight when the 10-second shutdown grace ran out. It was started, so whether it was carried out is unknown (unlike a request answered shuttingDown).",
            requestID: 4,
            payload: .error(.cutOff(grace: .seconds(10)))
        ),
        VectorSpec(
            name: "error-misconfigured",
            description: "Connection-level refusal (request id 0), the server's first frame before it closes: a socket-activated ligasd found a misspelt setting in its environment (from systemd's EnvironmentFile=) and exits without serving.",
            requestID: 0,
            payload: .error(ErrorBody(code: .misconfigured, message: "ligasd cannot start: LIGASD_LOG_LEVLE (in the environment; under systemd, from EnvironmentFile=): expected a known LIGASD_* setting name (ligasd --help lists them)"))
        ),
        VectorSpec(
            name: "error-too-many-connections-per-uid",
            description: "Connection-level refusal (request id 0), the server's first frame before it closes: the connecting user already has 128 connections.",
            requestID: 0,
            payload: .error(.tooManyConnections(.connectionsPerUID, max: 128))
        ),
    ]
}
