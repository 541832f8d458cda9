import FoundationEssentials

/// A fixture between two teams, named as the remote names them (`home`, `away` are team names).
public struct Match: Hashable, Codable, Sendable {
    public let date: Date
    public let description: String
    public let home: String
    public let away: String

    public init(date: Date, description: String, home: String, away: String) {
        self.date = date
        self.description = description
        self.home = home
        self.away = away
    }

    public func involves(team name: String) -> Bool { home == name || away == name }
}

/// An upcoming match is a plain match: it has no result yet.
public typealias UpcomingMatch = Match

/// A played match: the fixture plus its result and a link to its highlights.
public struct PreviousMatch: Hashable, Codable, Sendable {
    public let match: Match
    /// The winning team's name, or "Draw".
    public let winner: String
    public let highlightsURL: URL
    /// Goals of each side, when the source gives them (matches cached before scores existed have none).
    public let homeScore: Int?
    public let awayScore: Int?

    public init(match: Match, winner: String, highlightsURL: URL, homeScore: Int? = nil, awayScore: Int? = nil) {
        self.match = match
        self.winner = winner
        self.highlightsURL = highlightsURL
        self.homeScore = homeScore
        self.awayScore = awayScore
    }
}

public struct Matches: Hashable, Codable, Sendable {
    public let previous: [PreviousMatch]
    public let upcoming: [UpcomingMatch]

    public init(previous: [PreviousMatch], upcoming: [UpcomingMatch]) {
        self.previous = previous
        self.upcoming = upcoming
    }

    public var isEmpty: Bool { previous.isEmpty && upcoming.isEmpty }

    /// Only the matches a team (by name) plays in.
    public func involving(team name: String) -> Matches {
        Matches(
            previous: previous.filter { $0.match.involves(team: name) },
            upcoming: upcoming.filter { $0.involves(team: name) }
        )
    }
}
