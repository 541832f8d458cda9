/// The identity of one cached feed. `cacheKey` is its stable text form in the store.
public enum FeedKey: Hashable, Sendable {
    case leagues
    case teams(league: String)
    case players(team: String)
    case matches(league: String)
    case standings(league: String)
    /// The current seasons of a data source's leagues (`LeagueSeason`), by data source.
    case seasons(source: String)

    public var cacheKey: String {
        switch self {
        case .leagues: "leagues"
        case .teams(let league): "teams/\(league)"
        case .players(let team): "players/\(team)"
        case .matches(let league): "matches/\(league)"
        case .standings(let league): "standings/\(league)"
        case .seasons(let source): "seasons/\(source)"
        }
    }

    /// Parses a stored key back; `nil` for keys this version does not know (they are invalid).
    public init?(cacheKey: String) {
        if cacheKey == "leagues" { self = .leagues; return }
        guard let slash = cacheKey.firstIndex(of: "/") else { return nil }
        let id = String(cacheKey[cacheKey.index(after: slash)...])
        guard !id.isEmpty else { return nil }
        switch cacheKey[..<slash] {
        case "teams": self = .teams(league: id)
        case "players": self = .players(team: id)
        case "matches": self = .matches(league: id)
        case "standings": self = .standings(league: id)
        case "seasons": self = .seasons(source: id)
        default: return nil
        }
    }
}
