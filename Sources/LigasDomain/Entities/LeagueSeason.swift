/// Where a data source files a league's current season: sources such as FlashLive key a league's
/// standings, results and fixtures by season and stage ids that change every season.
public struct LeagueSeason: Hashable, Codable, Sendable {
    /// The league's id here (`serie-a`).
    public let league: String
    public let seasonID: String
    public let stageID: String

    public init(league: String, seasonID: String, stageID: String) {
        self.league = league
        self.seasonID = seasonID
        self.stageID = stageID
    }
}
