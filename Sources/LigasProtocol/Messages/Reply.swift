/// A method's result, typed. The wire carries no method name in responses: the client
/// knows it from the request id, and passes it to `decode(method:payload:)`.
public enum Reply: Encodable, Sendable, Hashable {
    case ping(PingResult)
    case leagues(LeaguesResult)
    case teams(TeamsResult)
    case players(PlayersResult)
    case matches(MatchesResult)
    /// Sent as a `response` frame with `streamFollows`; chunks follow.
    case image(StreamHeader)
    case status(DaemonStatus)
    case describe(InterfaceDescription)

    public var method: Method {
        switch self {
        case .ping: .ping
        case .leagues: .leagues
        case .teams: .teams
        case .players: .players
        case .matches: .matches
        case .image: .image
        case .status: .status
        case .describe: .describe
        }
    }

    public static func decode(
        method: Method, payload: [UInt8], using decoder: CBORDecoder = CBORDecoder()
    ) throws -> Reply {
        switch method {
        case .ping: .ping(try decoder.decode(PingResult.self, from: payload))
        case .leagues: .leagues(try decoder.decode(LeaguesResult.self, from: payload))
        case .teams: .teams(try decoder.decode(TeamsResult.self, from: payload))
        case .players: .players(try decoder.decode(PlayersResult.self, from: payload))
        case .matches: .matches(try decoder.decode(MatchesResult.self, from: payload))
        case .image: .image(try decoder.decode(StreamHeader.self, from: payload))
        case .status: .status(try decoder.decode(DaemonStatus.self, from: payload))
        case .describe: .describe(try decoder.decode(InterfaceDescription.self, from: payload))
        }
    }

    /// Encodes the result itself (no wrapper), exactly as the response payload.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .ping(let result): try container.encode(result)
        case .leagues(let result): try container.encode(result)
        case .teams(let result): try container.encode(result)
        case .players(let result): try container.encode(result)
        case .matches(let result): try container.encode(result)
        case .image(let result): try container.encode(result)
        case .status(let result): try container.encode(result)
        case .describe(let result): try container.encode(result)
        }
    }
}
