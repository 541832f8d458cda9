import FoundationEssentials

/// `teams`: the teams of one league.
public struct TeamsArguments: Codable, Sendable, Hashable {
    public var league: String
    public init(league: String) { self.league = league }
}

/// `players`: the squad of one team.
public struct PlayersArguments: Codable, Sendable, Hashable {
    public var team: String
    public init(team: String) { self.team = team }
}

/// `matches`: a league's matches, optionally only those of one team.
public struct MatchesArguments: Codable, Sendable, Hashable {
    public var league: String
    public var team: String?
    public init(league: String, team: String? = nil) {
        self.league = league
        self.team = team
    }
}

/// `image`: which image to stream. On the wire a map with exactly one of the keys
/// `url`, `league`, `team`, `player` that is not null.
public enum ImageArguments: Codable, Sendable, Hashable {
    /// An image URL the daemon knows from its own data (a logo or photo URL it served).
    case url(URL)
    /// The league's logo.
    case league(String)
    /// The team's logo.
    case team(String)
    /// The player's photo.
    case player(String)

    enum CodingKeys: String, CodingKey {
        case url, team, league, player
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // A key whose value is null is absent (PROTOCOL.md §3.1): `{team: "x", url: null}` is a team.
        let present = try [CodingKeys.url, .league, .team, .player].filter { try container.contains($0) && !container.decodeNil(forKey: $0) }
        guard present.count == 1, let key = present.first else {
            let reason = "exactly one of url, league, team, player is required"
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: reason))
        }
        switch key {
        case .url: self = .url(try container.decode(URL.self, forKey: .url))
        case .league: self = .league(try container.decode(String.self, forKey: .league))
        case .team: self = .team(try container.decode(String.self, forKey: .team))
        case .player: self = .player(try container.decode(String.self, forKey: .player))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .url(let url): try container.encode(url, forKey: .url)
        case .league(let id): try container.encode(id, forKey: .league)
        case .team(let id): try container.encode(id, forKey: .team)
        case .player(let id): try container.encode(id, forKey: .player)
        }
    }
}

/// One key of several: stated here, beside the custom coding that reads it.
extension ImageArguments: CustomWireSchema {
    static let wireSchema = TypeDescription(name: "ImageArguments", kind: .choice, oneOf: [
        .init(name: "url", type: "url"), .init(name: "league", type: "text"), .init(name: "team", type: "text"),
        .init(name: "player", type: "text"),
    ])
    static var wireReferences: [any Decodable.Type] { [] }
}
