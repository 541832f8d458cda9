/// One row of a league table: a team and its record so far.
public struct Standing: Hashable, Codable, Sendable {
    public let rank: Int
    public let team: Team
    public let played: Int
    public let won: Int
    public let drawn: Int
    public let lost: Int
    public let goalsFor: Int
    public let goalsAgainst: Int
    public let points: Int

    public init(
        rank: Int, team: Team, played: Int, won: Int, drawn: Int, lost: Int,
        goalsFor: Int, goalsAgainst: Int, points: Int
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
