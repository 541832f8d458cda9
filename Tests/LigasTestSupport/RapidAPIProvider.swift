import Foundation
import Synchronization

/// A loopback HTTP server impersonating FlashLive or Transfermarkt on RapidAPI: it answers only
/// requests carrying `x-rapidapi-key` (the test key) and the provider's `x-rapidapi-host`, on the
/// provider's paths and parameters, with `RapidAPIPayloads`; it adds RapidAPI's rate-limit headers;
/// and it can be told to misbehave.
public final class RapidAPIProvider: Sendable {
    public enum Kind: Sendable {
        case flashLive, transfermarkt

        public var host: String {
            switch self {
            case .flashLive: "flashlive-sports.p.rapidapi.com"
            case .transfermarkt: "transfermarket.p.rapidapi.com"
            }
        }
    }

    public enum Fault: Sendable, Equatable {
        /// HTTP 429, as RapidAPI answers past a plan's quota or rate.
        case rateLimited
        /// HTTP 503.
        case unavailable
        /// 200 with a body that is not the provider's JSON.
        case malformedBody
    }

    public let kind: Kind
    public let server: LoopbackHTTPServer
    private let state: State
    /// What the rate-limit headers announce as the plan's monthly requests.
    public static let planLimit = 500

    public var baseURL: URL { server.baseURL }
    public var requests: [LoopbackHTTPServer.RecordedRequest] { server.requests }

    /// The fault to answer with, and what the rate-limit headers say is left.
    final class State: Sendable {
        let current: Mutex<(fault: Fault?, remaining: Int)>
        init(remaining: Int) { current = Mutex((nil, remaining)) }
    }

    private init(kind: Kind, server: LoopbackHTTPServer, state: State) {
        self.kind = kind
        self.server = server
        self.state = state
    }

    /// `cdn` is where the payloads' images live (another loopback server).
    public static func start(_ kind: Kind, cdn: URL, remaining: Int = planLimit) async throws -> RapidAPIProvider {
        let state = State(remaining: remaining)
        let server = try await LoopbackHTTPServer.startRoutingRequests({ request in
            let (fault, left) = state.current.withLock { state -> (Fault?, Int) in
                state.remaining = max(0, state.remaining - 1)
                return (state.fault, state.remaining)
            }
            let reply = answer(kind, request, fault: fault, cdn: cdn)
            return .headers([
                "x-ratelimit-requests-limit": "\(planLimit)", "x-ratelimit-requests-remaining": "\(left)",
                "x-ratelimit-requests-reset": "86400",
            ], reply)
        })
        return RapidAPIProvider(kind: kind, server: server, state: state)
    }

    public func misbehave(_ fault: Fault?) {
        state.current.withLock { $0.fault = fault }
    }

    public func shutdown() async throws {
        try await server.shutdown()
    }

    static func answer(_ kind: Kind, _ request: LoopbackHTTPServer.RecordedRequest, fault: Fault?, cdn: URL) -> LoopbackHTTPServer.Reply {
        guard request.headers["x-rapidapi-key"] == RapidAPIPayloads.apiKey else {
            return .status(403, body: Data(#"{"message":"Invalid API key. Go to https://docs.rapidapi.com/docs/keys for more info."}"#.utf8))
        }
        guard request.headers["x-rapidapi-host"] == kind.host else {
            return .status(403, body: Data(#"{"message":"The host you've provided is invalid."}"#.utf8))
        }
        switch fault {
        case .rateLimited: return .status(429, body: Data(#"{"message":"You have exceeded the MONTHLY quota for Requests on your current plan, BASIC."}"#.utf8))
        case .unavailable: return .status(503)
        case .malformedBody: return .ok(Data("<html>upstream error</html>".utf8), contentType: "text/html")
        case nil: break
        }
        let components = URLComponents(string: request.path)
        let query = Dictionary((components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        let template: String? = switch kind {
        case .flashLive: flashLive(components?.path ?? "", query)
        case .transfermarkt: transfermarkt(components?.path ?? "", query)
        }
        guard let template else { return .status(404, body: Data(#"{"message":"Not found"}"#.utf8)) }
        return .ok(RapidAPIPayloads.filled(template, cdn: cdn), contentType: "application/json")
    }

    /// FlashLive's paths; nil is its 404 (which for results and fixtures means "no events").
    static func flashLive(_ path: String, _ query: [String: String]) -> String? {
        typealias P = RapidAPIPayloads
        let seasonA = P.serieASeason, seasonB = P.serieBSeason
        switch path {
        case "/v1/tournaments/list" where query["sport_id"] == "1":
            return P.flashLiveTournaments
        case "/v1/tournaments/standings" where query["standing_type"] == "overall":
            switch (query["tournament_season_id"], query["tournament_stage_id"]) {
            case (seasonA.season, seasonA.stage): return P.flashLiveStandingsSerieA
            case (seasonB.season, seasonB.stage): return P.flashLiveStandingsSerieB
            default: return nil
            }
        case "/v1/teams/squad" where query["sport_id"] == "1":
            let known = (P.serieATeams + P.serieBTeamsAtFlashLive).map(\.id)
            return query["team_id"].flatMap { known.contains($0) ? P.flashLiveSquad(team: $0) : nil }
        case "/v1/tournaments/results" where query["page"] == "1":
            switch query["tournament_stage_id"] {
            case seasonA.stage: return P.flashLiveResultsSerieA
            case seasonB.stage: return P.flashLiveResultsSerieB
            default: return nil
            }
        case "/v1/tournaments/fixtures" where query["page"] == "1":
            // Serie B has no fixtures left: FlashLive's 404.
            return query["tournament_stage_id"] == seasonA.stage ? P.flashLiveFixturesSerieA : nil
        case "/v1/events/highlights" where query["event_id"] != nil:
            return P.flashLiveHighlights
        default:
            return nil
        }
    }

    static func transfermarkt(_ path: String, _ query: [String: String]) -> String? {
        typealias P = RapidAPIPayloads
        guard query["domain"] == "es" else { return nil }
        switch path {
        case "/clubs/list-by-competition" where query["id"] == "EC2L":
            return P.transfermarktClubsSerieB
        case "/clubs/get-squad":
            return query["id"].flatMap { id in P.serieBClubsAtTransfermarkt.contains { $0.id == id } ? P.transfermarktSquad(club: id) : nil }
        default:
            return nil
        }
    }
}

/// Where the providers' payloads say their images are: any `.png` or `.jpg` path is an image.
public enum ImageCDN {
    @Sendable public static func route(_ path: String) -> LoopbackHTTPServer.Reply {
        let bare = path.split(separator: "?").first.map(String.init) ?? path
        return bare.hasSuffix(".png") || bare.hasSuffix(".jpg") ? .ok(Fixtures.png, contentType: "image/png") : .status(404)
    }
}
