import FoundationEssentials

/// A fixture not yet played (also the common shape of every match).
public struct Match: Codable, Sendable, Hashable {
    /// Kick-off, millisecond precision.
    public var date: Date
    public var description: String
    /// Home team name as given by the data source.
    public var home: String
    public var away: String

    public init(date: Date, description: String, home: String, away: String) {
        self.date = date
        self.description = description
        self.home = home
        self.away = away
    }
}

public typealias UpcomingMatch = Match

/// A played match: the `Match` fields plus result and highlights.
public struct PreviousMatch: Codable, Sendable, Hashable {
    public var date: Date
    public var description: String
    public var home: String
    public var away: String
    /// The winner as given by the data source (a team name, or e.g. "draw").
    public var winner: String
    public var highlights: URL
    /// Goals of each side; absent when the source does not say (added after version 1's first
    /// release: a compatible change, old clients ignore them).
    public var homeScore: Int?
    public var awayScore: Int?

    public init(
        date: Date, description: String, home: String, away: String, winner: String, highlights: URL,
        homeScore: Int? = nil, awayScore: Int? = nil
    ) {
        self.date = date
        self.description = description
        self.home = home
        self.away = away
        self.winner = winner
        self.highlights = highlights
        self.homeScore = homeScore
        self.awayScore = awayScore
    }
}

/// Result value of `matches`.
public struct Matches: Codable, Sendable, Hashable {
    public var previous: [PreviousMatch]
    public var upcoming: [UpcomingMatch]

    public init(previous: [PreviousMatch], upcoming: [UpcomingMatch]) {
        self.previous = previous
        self.upcoming = upcoming
    }
}
