import FoundationEssentials
import LigasDomain
import LigasRemote
import Logging

/// The data engine the daemon serves: every use case, composed, behind one facade.
///
/// Built only by `LigasEngine.compose` (the composition root of the data layers).
public struct LigasEngine: Sendable {
    let leaguesUseCase: LoadLeaguesUseCase
    let teamsLoader: PolicyRoutingLoader<String, [Team]>
    let playersLoader: PolicyRoutingLoader<String, [Player]>
    let matchesLoader: PolicyRoutingLoader<String, Matches>
    let standingsLoader: PolicyRoutingLoader<String, [Standing]>
    let imageLoader: PolicyRoutingLoader<URL, ImageStream>
    /// The caches behind the loaders, for answers that are ready now (`LigasEngine+ReadyNow`).
    let teamsCache: LocalFeedLoader<String, [Team]>
    let playersCache: LocalFeedLoader<String, [Player]>
    let standingsCache: LocalFeedLoader<String, [Standing]>
    let imageCache: LocalImageLoader
    let cacheValidation: ValidateCacheUseCase
    let knownImages: KnownImageURLs
    let cachedImageReferences: CachedImageReferences
    /// The monthly budget and the providers it meters; nil when nothing is metered.
    let requestBudget: (budget: MonthlyRequestBudget, providers: [String])?

    /// Use case "Load leagues" (bootstrap list, cached).
    public func leagues(policy: LoadPolicy = .default) async -> Loaded<[League]> {
        let loaded = await leaguesUseCase.load(policy: policy)
        knownImages.record(loaded.value.map(\.logoURL))
        return loaded
    }

    /// Use case "Load teams": cache first.
    public func teams(league: String, policy: LoadPolicy = .default) async throws -> Loaded<[Team]> {
        let loaded = try await teamsLoader.load(league, policy: policy)
        knownImages.record(loaded.value.map(\.logoURL))
        return loaded
    }

    /// Use case "Load players": cache first.
    public func players(team: String, policy: LoadPolicy = .default) async throws -> Loaded<[Player]> {
        let loaded = try await playersLoader.load(team, policy: policy)
        knownImages.record(loaded.value.compactMap(\.photoURL))
        return loaded
    }

    /// Use case "Load matches": remote first. `team` (an id or a name) keeps only that team's
    /// matches; a team the league does not have is `notFound`, not an empty list.
    public func matches(league: String, team: String? = nil, policy: LoadPolicy = .default) async throws -> Loaded<Matches> {
        let loaded = try await matchesLoader.load(league, policy: policy)
        guard let team else { return loaded }
        let lookup: LoadPolicy = policy == .offline ? .offline : .default
        guard let teams = try? await teams(league: league, policy: lookup).value else {
            // The team list cannot be read: take the text as the name the matches use.
            let involving = loaded.value.involving(team: team)
            guard !involving.isEmpty || loaded.value.isEmpty else {
                throw LigasError.notFound("no matches of a team '\(team)' in league '\(league)'")
            }
            return Loaded(involving, from: loaded.origin)
        }
        guard let known = teams.first(where: { $0.id == team || $0.name.lowercased() == team.lowercased() }) else {
            throw LigasError.notFound("no team '\(team)' in league '\(league)'")
        }
        return loaded.map { $0.involving(team: known.name) }
    }

    /// Use case "Load standings": the league table, cache first like teams.
    public func standings(league: String, policy: LoadPolicy = .default) async throws -> Loaded<[Standing]> {
        let loaded = try await standingsLoader.load(league, policy: policy)
        knownImages.record(loaded.value.map(\.team.logoURL))
        return loaded
    }

    /// Use case "Load image data": cache first, streamed. Only URLs from the daemon's own data or
    /// beneath a configured source are fetched; anything else is `notFound`.
    public func image(url: URL, policy: LoadPolicy = .default) async throws -> Loaded<ImageStream> {
        guard await isKnownImage(url) else {
            throw LigasError.notFound("image URL is not part of ligasd's data")
        }
        return try await imageLoader.load(url, policy: policy)
    }

    /// Known from this process's loads, or else from what the cache refers to (e.g. after a restart).
    private func isKnownImage(_ url: URL) async -> Bool {
        if knownImages.contains(url) { return true }
        guard let cached = try? cachedImageReferences.all() else { return false }
        knownImages.record(cached)
        return knownImages.contains(url)
    }

    /// Whether a metered provider (RapidAPI) is configured, so that `requestBudgets` reads the cache file.
    public var hasRequestBudget: Bool { requestBudget != nil }

    /// Each metered provider's requests this month: used, budget, remaining, read from the
    /// cache file. Empty when no metered provider is configured.
    public func requestBudgets() -> [QuotaUsage] {
        guard let (budget, providers) = requestBudget else { return [] }
        return providers.map(budget.usage)
    }

    /// Use case "Validate cache", run once at start-up; it also drops a cached leagues list that
    /// no longer matches the configured sources, and the feeds of the leagues whose source changed.
    public func validateCache() async throws -> CacheValidationReport {
        var report = try cacheValidation.validateCache()
        if let changed = try await leaguesUseCase.discardOutdatedLeagues() {
            report.outdatedLeagues = true
            report.outdatedFeeds = try cacheValidation.discardFeeds(ofLeagues: changed)
        }
        return report
    }
}
