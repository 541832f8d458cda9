/// Where a league's data comes from: which remote contract (endpoints + payload shapes) serves it.
///
/// A struct over a raw string rather than an enum, so a new third-party provider is added by
/// declaring one constant here and registering one contract (mapper + endpoint table) in the
/// remote layer, without touching every `switch` in the code base.
public struct DataSource: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The project's own REST contract (see README, "Remote contracts").
    public static let ligasREST = DataSource(rawValue: "ligas-rest")
    /// The seed football API contract: `GET /teams`, `GET /teams/matches`.
    public static let seedFootballAPI = DataSource(rawValue: "seed-football-api")
    /// FlashLive Sports on RapidAPI: standings (and the teams in them), squads, results, fixtures.
    public static let flashLive = DataSource(rawValue: "flashlive")
    /// Transfermarkt on RapidAPI: clubs of a competition and their squads.
    public static let transfermarkt = DataSource(rawValue: "transfermarkt")

    public var description: String { rawValue }
}
