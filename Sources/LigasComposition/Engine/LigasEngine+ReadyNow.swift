import LigasDomain

/// Answers that are ready now: what a use case would deliver from the cache already decoded in
/// memory, told synchronously. The server answers these inside its read handler, with no task
/// and no thread hop; nil means "not ready now: call the use case", never "nothing cached".
///
/// Only where the use case itself is cache first: leagues, teams, players and standings under
/// `default` and `offline`. Matches are remote first, and `refresh` always goes to the remote.
extension LigasEngine {
    public func leaguesNow(policy: LoadPolicy) -> Loaded<[League]>? {
        leaguesUseCase.loadFromMemory(policy: policy)
    }

    public func teamsNow(league: String, policy: LoadPolicy) -> Loaded<[Team]>? {
        policy == .refresh ? nil : teamsCache.loadFromMemory(league)
    }

    public func playersNow(team: String, policy: LoadPolicy) -> Loaded<[Player]>? {
        policy == .refresh ? nil : playersCache.loadFromMemory(team)
    }

    public func standingsNow(league: String, policy: LoadPolicy) -> Loaded<[Standing]>? {
        policy == .refresh ? nil : standingsCache.loadFromMemory(league)
    }
}
