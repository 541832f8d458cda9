import LigasDomain

/// Answers that are ready now: what a use case would deliver from the cache already decoded in
/// memory, told synchronously. The server answers these inside its read handler, with no task
/// and no thread hop; nil means "not ready now: call the use case", never "nothing cached".
///
/// Only where the use case itself is cache first: leagues, teams, players, standings and images
/// under `default` and `offline`. Matches are remote first, and `refresh` always goes to the remote.
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

    /// A small cached image whole in memory (see `LocalImageLoader`), when its URL, and the lists
    /// that lead to it, are known without waiting.
    public func imageNow(of subject: ImageSubject, policy: LoadPolicy) -> Loaded<RememberedImage>? {
        guard policy != .refresh, let url = imageURLFromMemory(of: subject), knownImages.contains(url) else { return nil }
        return imageCache.loadFromMemory(url)
    }
}
