import LigasDomain

/// Teams of a league whose source lists them only in its table (FlashLive): the table is loaded
/// through its own use case (so it is cached too) and its teams delivered. A league's teams and
/// its table then cost one remote request together, whichever is asked first. Leagues of other
/// sources go to `direct`.
public struct TeamsFromStandingsLoader: Loader {
    private let direct: any Loader<String, [Team]>
    private let standings: @Sendable (String) async throws -> Loaded<[Standing]>
    private let derivesTeams: @Sendable (String) async -> Bool

    public init(
        direct: any Loader<String, [Team]>,
        standings: @escaping @Sendable (String) async throws -> Loaded<[Standing]>,
        derivesTeams: @escaping @Sendable (String) async -> Bool
    ) {
        self.direct = direct
        self.standings = standings
        self.derivesTeams = derivesTeams
    }

    public func load(_ league: String) async throws -> Loaded<[Team]> {
        guard await derivesTeams(league) else { return try await direct.load(league) }
        return try await standings(league).map { $0.map(\.team) }
    }
}
