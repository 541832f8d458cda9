import FoundationEssentials
import LigasDomain

extension RemoteContract {
    /// FlashLive Sports on RapidAPI (`https://flashlive-sports.p.rapidapi.com`). A league's feeds
    /// are filed under its current season and stage ids, listed by `/v1/tournaments/list`:
    ///
    ///     GET v1/tournaments/list?sport_id=1&locale=es_MX          -> DATA[{COUNTRY_NAME, LEAGUE_NAME, ACTUAL_TOURNAMENT_SEASON_ID, STAGES[{STAGE_ID}]}]
    ///     GET v1/tournaments/standings?tournament_season_id=…&tournament_stage_id=…&standing_type=overall&locale=es_MX
    ///                                                              -> DATA[0].ROWS[{RANKING, TEAM_ID, TEAM_NAME, TEAM_IMAGE_PATH, …}]
    ///     GET v1/teams/squad?sport_id=1&team_id=…&locale=es_MX     -> DATA[{ITEMS[{PLAYER_ID, PLAYER_NAME, PLAYER_TYPE_ID, …}]}]
    ///     GET v1/tournaments/results?tournament_stage_id=…&locale=es_MX&page=1   (404: no results yet)
    ///     GET v1/tournaments/fixtures?tournament_stage_id=…&locale=es_MX&page=1  (404: no fixtures left)
    ///                                                              -> DATA[{EVENTS[{EVENT_ID, START_TIME, HOME_NAME, …}]}]
    ///     GET v1/events/highlights?event_id=…                      -> DATA[{PROPERTY_LINK}] (one request per match: not fetched)
    ///
    /// Teams come out of the standings, so a league's teams and table cost one request together.
    /// Matches take the first page of results and of fixtures: two requests.
    public static let flashLive = RemoteContract(
        dataSource: .flashLive,
        endpoints: EndpointTable(
            paths: { feed, target in FlashLive.paths(feed, target) },
            apiKeyHeader: RapidAPI.keyHeader,
            fixedHeaders: [RapidAPI.hostHeader: FlashLive.host],
            emptyStatuses: [.matches: [404]],
            seasons: "v1/tournaments/list?sport_id=\(FlashLive.football)&locale=\(FlashLive.locale)",
            teamsFromStandings: true
        ),
        mapper: FlashLiveMapper()
    )
}

/// RapidAPI's request headers, the same for every provider it sells.
public enum RapidAPI {
    public static let keyHeader = "x-rapidapi-key"
    public static let hostHeader = "x-rapidapi-host"
}

/// FlashLive's fixed parameters.
public enum FlashLive {
    public static let host = "flashlive-sports.p.rapidapi.com"
    public static let defaultBaseURL = URL(string: "https://\(host)/")!
    static let football = 1
    /// Spanish, as the app this project comes from asked: round names and countries as users read them.
    static let locale = "es_MX"

    static func paths(_ feed: EndpointTable.Feed, _ target: EndpointTable.Target) -> [String]? {
        switch feed {
        case .players:
            return ["v1/teams/squad?sport_id=\(football)&team_id=\(target.id)&locale=\(locale)"]
        case .teams, .standings:
            guard let season = target.season else { return nil }
            return [
                "v1/tournaments/standings?tournament_season_id=\(season.seasonID)&tournament_stage_id=\(season.stageID)"
                    + "&standing_type=overall&locale=\(locale)",
            ]
        case .matches:
            guard let season = target.season else { return nil }
            return ["results", "fixtures"].map {
                "v1/tournaments/\($0)?tournament_stage_id=\(season.stageID)&locale=\(locale)&page=1"
            }
        }
    }

    /// The highlights of one match: a request per match, so ligasd never makes it on its own.
    public static func highlightsPath(eventID: String) -> String? {
        RemoteID.isSafe(eventID) ? "v1/events/highlights?event_id=\(eventID)" : nil
    }

    /// A played match's page on Flashscore (FlashLive's own site), where its highlights are: what
    /// `highlights` links to, at no request's cost.
    static func matchPage(eventID: String) -> URL? {
        RemoteID.isSafe(eventID) ? URL(string: "https://www.flashscore.com/match/\(eventID)/#/match-summary") : nil
    }
}
