/// `standings`: the table of one league.
public struct StandingsArguments: Codable, Sendable, Hashable {
    public var league: String
    public init(league: String) { self.league = league }
}

/// One row of a league table, as sent on the wire.
public struct Standing: Codable, Sendable, Hashable {
    /// 1 for the leader.
    public var rank: Int
    public var team: Team
    public var played: Int
    public var won: Int
    public var drawn: Int
    public var lost: Int
    public var goalsFor: Int
    public var goalsAgainst: Int
    public var points: Int

    public init(
        rank: Int, team: Team, played: Int, won: Int, drawn: Int, lost: Int, goalsFor: Int, goalsAgainst: Int, points: Int
    ) {
        self.rank = rank
        self.team = team
        self.played = played
        self.won = won
        self.drawn = drawn
        self.lost = lost
        self.goalsFor = goalsFor
        self.goalsAgainst = goalsAgainst
        self.points = points
    }
}

public typealias StandingsResult = Sourced<[Standing]>
