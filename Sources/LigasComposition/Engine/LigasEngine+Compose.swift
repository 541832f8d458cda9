import FoundationEssentials
import LigasDomain
import LigasRemote
import Logging

extension LigasEngine {
    /// Composes every use case from the remote, the cache store and the clock.
    ///
    /// - teams, players, standings, images: cache first (`FallbackLoader(cache, caching(remote))`);
    ///   teams of a league whose source lists them in its table come out of the standings
    /// - matches: remote first within a budget (`RemoteFirstLoader(caching(remote), cache)`)
    /// - concurrent loads of the same feed share one flight, cache check included (`sharingFlights`)
    /// - a league's season at a source that files leagues by season (FlashLive): the configured
    ///   one, else the source's listing, cached like any feed
    /// - requests to metered providers are counted against the monthly budget (`requestCounts`
    ///   keeps the count; without it nothing is metered)
    ///
    /// `remoteFallbackMetadata` tags the "remote failed; cached matches answered instead" log entry and `quotaMetadata`
    /// the budget entries (the daemon adds its journal MESSAGE_IDs there).
    public static func compose(
        configuration: EngineConfiguration,
        feedStore: any FeedStore,
        imageStore: any ImageDataStore,
        requestCounts: (any RequestCountStore)? = nil,
        httpClient: any HTTPClient,
        currentDate: @escaping @Sendable () -> Date = Date.init,
        logger: Logger,
        remoteFallbackMetadata: Logger.Metadata = [:],
        quotaMetadata: Logger.Metadata = [:]
    ) -> LigasEngine {
        let policy = configuration.cachePolicy
        let catalog = RemoteCatalog(sources: configuration.sources)
        let budget = requestCounts.map {
            MonthlyRequestBudget(budget: configuration.monthlyRequestBudget, store: $0, currentDate: currentDate)
        }
        let metered = configuration.meteredSources
        let httpClient: any HTTPClient = if let budget, !metered.isEmpty {
            MeteredHTTPClient(
                base: httpClient, meters: metered.map { .init(provider: $0.dataSource, baseURL: $0.baseURL) }, budget: budget,
                onEvent: { QuotaLog.record($0, logger: logger, metadata: quotaMetadata) })
        } else {
            httpClient
        }

        func cache<Key: Hashable & Sendable, Value: Codable & Sendable>(
            _ feedKey: @escaping @Sendable (Key) -> FeedKey
        ) -> LocalFeedLoader<Key, Value> {
            LocalFeedLoader(store: feedStore, feedKey: feedKey, currentDate: currentDate, policy: policy)
        }
        func cachedRemote<Key, Value>(
            _ remote: any Loader<Key, Value>, into cache: LocalFeedLoader<Key, Value>
        ) -> CachingLoader<Key, Value> {
            CachingLoader(decoratee: remote, cache: cache, logger: logger)
        }

        let leaguesCache: LocalFeedLoader<AllLeagues, [League]> = cache { _ in .leagues }
        let leagues = LoadLeaguesUseCase(cache: leaguesCache, bootstrap: configuration.bootstrapLeagues)
        let teamsCache: LocalFeedLoader<String, [Team]> = cache { .teams(league: $0) }
        let playersCache: LocalFeedLoader<String, [Player]> = cache { .players(team: $0) }
        let matchesCache: LocalFeedLoader<String, Matches> = cache { .matches(league: $0) }
        let standingsCache: LocalFeedLoader<String, [Standing]> = cache { .standings(league: $0) }
        let seasonsCache: LocalFeedLoader<DataSource, [LeagueSeason]> = cache { .seasons(source: $0.rawValue) }

        let seasons = PolicyRoutingLoader.cacheFirst(
            cache: seasonsCache, remote: cachedRemote(RemoteFeedLoader.seasons(client: httpClient, catalog: catalog), into: seasonsCache)
        ).sharingFlights()
        let overrides = configuration.seasonOverrides
        let seasonOf: SeasonLookup = { source, league in
            if let configured = overrides.first(where: { $0.league == league }) { return configured }
            guard let listed = try await seasons.load(source, policy: .default).value.first(where: { $0.league == league }) else {
                throw LigasError.notFound("\(source) lists no current season of league '\(league)'; its ids can be configured")
            }
            return listed
        }

        let dataSources = DataSourceLookup(
            leagues: leagues, teamsCache: teamsCache, standingsCache: standingsCache, teamSources: configuration.teamSources,
            fallback: configuration.sources.contains { $0.dataSource == .ligasREST } ? .ligasREST : nil)
        let remoteTeams = RemoteFeedLoader.teams(
            client: httpClient, catalog: catalog, dataSourceOfLeague: dataSources.ofLeagueTeams, seasonOf: seasonOf)
        let remoteMatches = RemoteFeedLoader.matches(
            client: httpClient, catalog: catalog, dataSourceOfLeague: dataSources.ofLeague, seasonOf: seasonOf)
        let remoteStandings = RemoteFeedLoader.standings(
            client: httpClient, catalog: catalog, dataSourceOfLeague: dataSources.ofLeague, seasonOf: seasonOf)

        let standingsLoader = PolicyRoutingLoader.cacheFirst(
            cache: standingsCache, remote: cachedRemote(remoteStandings, into: standingsCache)
        ).sharingFlights()
        let ofLeagueTeams = dataSources.ofLeagueTeams
        func teamsThroughStandings(_ standingsPolicy: LoadPolicy) -> CachingLoader<String, [Team]> {
            cachedRemote(TeamsFromStandingsLoader(
                direct: remoteTeams,
                standings: { try await standingsLoader.load($0, policy: standingsPolicy) },
                derivesTeams: { league in
                    guard let source = try? await ofLeagueTeams(league) else { return false }
                    return catalog.contract(of: source)?.endpoints.teamsFromStandings ?? false
                }
            ), into: teamsCache)
        }

        let teamsLoader = PolicyRoutingLoader(
            default: FallbackLoader(primary: teamsCache, fallback: teamsThroughStandings(.default)),
            refresh: teamsThroughStandings(.refresh), offline: teamsCache
        ).sharingFlights()
        let remotePlayers = RemoteFeedLoader.players(
            client: httpClient, catalog: catalog,
            dataSourceOfTeam: dataSources.ofTeam(loadTeams: { try await teamsLoader.load($0, policy: .default).value }))

        let imageCache = LocalImageLoader(
            store: imageStore, currentDate: currentDate, policy: policy, chunkSize: configuration.imageChunkSize)
        let remoteImages = ImageCachingLoader(
            decoratee: LimitedDownloadsImageLoader(
                decoratee: RemoteImageLoader(client: httpClient, maxBytes: configuration.maxImageBytes),
                slots: DownloadSlots(LimitedDownloadsImageLoader.defaultSlots)),
            cache: imageCache, logger: logger)

        return LigasEngine(
            leaguesUseCase: leagues,
            teamsLoader: teamsLoader,
            playersLoader: PolicyRoutingLoader.cacheFirst(cache: playersCache, remote: cachedRemote(remotePlayers, into: playersCache))
                .sharingFlights(),
            matchesLoader: .remoteFirst(
                remote: cachedRemote(remoteMatches, into: matchesCache), cache: matchesCache,
                budget: RemoteFirstLoader<String, Matches>.sleeping(configuration.remoteFirstBudget),
                onCacheStoodIn: { league, error in
                    logger.notice("remote failed; cached matches answered instead", metadata: [
                        "league": "\(league)", "error": "\(error)",
                    ].merging(remoteFallbackMetadata) { $1 })
                }).sharingFlights(),
            standingsLoader: standingsLoader,
            imageLoader: .cacheFirst(cache: imageCache, remote: remoteImages),
            teamsCache: teamsCache,
            playersCache: playersCache,
            standingsCache: standingsCache,
            imageCache: imageCache,
            cacheValidation: ValidateCacheUseCase(
                feeds: feedStore, images: imageStore, currentDate: currentDate, policy: policy),
            knownImages: KnownImageURLs(sourceBaseURLs: configuration.sources.map(\.baseURL)),
            cachedImageReferences: CachedImageReferences(store: feedStore),
            // Only with a metered provider: `status` then carries `quota` (absent otherwise, PROTOCOL.md §4).
            requestBudget: metered.isEmpty ? nil : budget.map { budget in (budget, metered.map(\.dataSource.rawValue)) }
        )
    }
}

/// Which data source serves a league's or a team's feeds. A league says so in the bootstrap list,
/// unless its teams come from elsewhere (`teamSources`); a team inherits it from the cached teams
/// (or table) it appears in. What is found nowhere goes to the project's own contract when it is
/// configured (its 404 says "not found"); otherwise a team is looked for in the leagues' team
/// lists (loaded as `teams` would), and an unknown league or team is `notFound`.
struct DataSourceLookup: Sendable {
    let leagues: LoadLeaguesUseCase
    let teamsCache: LocalFeedLoader<String, [Team]>
    let standingsCache: LocalFeedLoader<String, [Standing]>
    let teamSources: [String: DataSource]
    let fallback: DataSource?

    var ofLeague: @Sendable (String) async throws -> DataSource {
        { [leagues, fallback] id in
            if let league = await leagues.load(policy: .offline).value.first(where: { $0.id == id }) { return league.dataSource }
            if let fallback { return fallback }
            throw LigasError.notFound("no league '\(id)'")
        }
    }

    var ofLeagueTeams: @Sendable (String) async throws -> DataSource {
        { [teamSources, ofLeague] id in
            if let source = teamSources[id] { return source }
            return try await ofLeague(id)
        }
    }

    /// `loadTeams` loads a league's teams (cache first) when the caches do not know the team.
    func ofTeam(loadTeams: @escaping @Sendable (String) async throws -> [Team]) -> @Sendable (String) async throws -> DataSource {
        { [leagues, teamsCache, standingsCache, fallback] id in
            let leagueIDs = await leagues.load(policy: .offline).value.map(\.id)
            for league in leagueIDs {
                if let team = try? await teamsCache.load(league).value.first(where: { $0.id == id }) { return team.dataSource }
            }
            for league in leagueIDs {
                if let row = try? await standingsCache.load(league).value.first(where: { $0.team.id == id }) {
                    return row.team.dataSource
                }
            }
            if let fallback { return fallback }
            for league in leagueIDs {
                if let team = try? await loadTeams(league).first(where: { $0.id == id }) { return team.dataSource }
            }
            throw LigasError.notFound("no team '\(id)' in any league")
        }
    }
}

/// The journal's budget entries.
enum QuotaLog {
    static func record(_ event: MeteredHTTPClient.Event, logger: Logger, metadata: Logger.Metadata) {
        switch event {
        case .budgetSpent(let provider, let budget):
            logger.warning("monthly request budget spent; further requests are refused until next month", metadata: [
                "provider": "\(provider)", "budget": "\(budget)",
            ].merging(metadata) { $1 })
        case .refused(let provider, let reason):
            logger.warning("request refused: quota exceeded; cached data still answers", metadata: [
                "provider": "\(provider)", "reason": "\(reason)",
            ].merging(metadata) { $1 })
        case .rateLimited(let provider, let remaining):
            logger.warning("provider answered HTTP 429 (rate or quota limit)", metadata: [
                "provider": "\(provider)", "reported-remaining": "\(remaining.map(String.init) ?? "unknown")",
            ].merging(metadata) { $1 })
        }
    }
}
