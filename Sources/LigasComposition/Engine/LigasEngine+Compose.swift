import Foundation
import LigasDomain
import LigasRemote
import Logging

extension LigasEngine {
    /// Composes every use case from the remote, the cache store and the clock.
    ///
    /// - teams, players, standings, images: cache first (`FallbackLoader(cache, caching(remote))`)
    /// - matches: remote first within a budget (`RemoteFirstLoader(caching(remote), cache)`)
    /// - concurrent loads of the same feed share one flight, cache check included (`sharingFlights`)
    ///
    /// `remoteFallbackMetadata` tags the "remote failed, falling back" log entry (the daemon adds
    /// its journal MESSAGE_ID there).
    public static func compose(
        configuration: EngineConfiguration,
        feedStore: any FeedStore,
        imageStore: any ImageDataStore,
        httpClient: any HTTPClient,
        currentDate: @escaping @Sendable () -> Date = Date.init,
        logger: Logger,
        remoteFallbackMetadata: Logger.Metadata = [:]
    ) -> LigasEngine {
        let policy = configuration.cachePolicy
        let catalog = RemoteCatalog(sources: configuration.sources)

        let leaguesCache = LocalFeedLoader<AllLeagues, [League]>(
            store: feedStore, feedKey: { _ in .leagues }, currentDate: currentDate, policy: policy)
        let leagues = LoadLeaguesUseCase(
            cache: leaguesCache, bootstrap: configuration.bootstrapLeagues)

        let teamsCache = LocalFeedLoader<String, [Team]>(
            store: feedStore, feedKey: { .teams(league: $0) }, currentDate: currentDate, policy: policy)
        let playersCache = LocalFeedLoader<String, [Player]>(
            store: feedStore, feedKey: { .players(team: $0) }, currentDate: currentDate, policy: policy)
        let matchesCache = LocalFeedLoader<String, Matches>(
            store: feedStore, feedKey: { .matches(league: $0) }, currentDate: currentDate, policy: policy)
        let standingsCache = LocalFeedLoader<String, [Standing]>(
            store: feedStore, feedKey: { .standings(league: $0) }, currentDate: currentDate, policy: policy)

        let dataSources = DataSourceLookup(leagues: leagues, teamsCache: teamsCache)
        let remoteTeams = RemoteFeedLoader.teams(
            client: httpClient, catalog: catalog, dataSourceOfLeague: dataSources.ofLeague)
        let remotePlayers = RemoteFeedLoader.players(
            client: httpClient, catalog: catalog, dataSourceOfTeam: dataSources.ofTeam)
        let remoteMatches = RemoteFeedLoader.matches(
            client: httpClient, catalog: catalog, dataSourceOfLeague: dataSources.ofLeague)
        let remoteStandings = RemoteFeedLoader.standings(
            client: httpClient, catalog: catalog, dataSourceOfLeague: dataSources.ofLeague)

        func cachedRemote<Value>(
            _ remote: any Loader<String, Value>, into cache: LocalFeedLoader<String, Value>
        ) -> CachingLoader<String, Value> {
            CachingLoader(decoratee: remote, cache: cache, logger: logger)
        }

        let imageCache = LocalImageLoader(
            store: imageStore, currentDate: currentDate, policy: policy, chunkSize: configuration.imageChunkSize)
        let remoteImages = ImageCachingLoader(
            decoratee: RemoteImageLoader(client: httpClient, maxBytes: configuration.maxImageBytes),
            cache: imageCache, logger: logger)

        return LigasEngine(
            leaguesUseCase: leagues,
            teamsLoader: PolicyRoutingLoader.cacheFirst(cache: teamsCache, remote: cachedRemote(remoteTeams, into: teamsCache))
                .sharingFlights(),
            playersLoader: PolicyRoutingLoader.cacheFirst(cache: playersCache, remote: cachedRemote(remotePlayers, into: playersCache))
                .sharingFlights(),
            matchesLoader: .remoteFirst(
                remote: cachedRemote(remoteMatches, into: matchesCache), cache: matchesCache,
                budget: RemoteFirstLoader<String, Matches>.sleeping(configuration.remoteFirstBudget),
                onRemoteFailure: { league, error in
                    logger.notice("remote failed; falling back to cached matches", metadata: [
                        "league": "\(league)", "error": "\(error)",
                    ].merging(remoteFallbackMetadata) { $1 })
                }).sharingFlights(),
            standingsLoader: PolicyRoutingLoader.cacheFirst(
                cache: standingsCache, remote: cachedRemote(remoteStandings, into: standingsCache)
            ).sharingFlights(),
            imageLoader: .cacheFirst(cache: imageCache, remote: remoteImages),
            cacheValidation: ValidateCacheUseCase(
                feeds: feedStore, images: imageStore, currentDate: currentDate, policy: policy),
            knownImages: KnownImageURLs(sourceBaseURLs: configuration.sources.map(\.baseURL)),
            cachedImageReferences: CachedImageReferences(store: feedStore)
        )
    }
}

/// Which data source serves a league or a team: leagues say so in the bootstrap list; a team
/// inherits it from the cached teams of its league. Unknown ids go to the project's own contract.
struct DataSourceLookup: Sendable {
    let leagues: LoadLeaguesUseCase
    let teamsCache: LocalFeedLoader<String, [Team]>

    var ofLeague: @Sendable (String) async -> DataSource {
        { [leagues] id in
            await leagues.load(policy: .offline).value.first { $0.id == id }?.dataSource ?? .ligasREST
        }
    }

    var ofTeam: @Sendable (String) async -> DataSource {
        { [leagues, teamsCache] id in
            for league in await leagues.load(policy: .offline).value {
                if let team = try? await teamsCache.load(league.id).value.first(where: { $0.id == id }) {
                    return team.dataSource
                }
            }
            return .ligasREST
        }
    }
}
