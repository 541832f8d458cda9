import Foundation

/// Recorded-style payloads of the two RapidAPI providers: the structure of their documented
/// responses (as the LigasEc app's mapper tests recorded them), the data made up here. Image paths
/// are `{cdn}/…`, filled with a loopback image server's base URL when served.
///
/// The league in these payloads: LigaPro Serie A with 4 teams at FlashLive, Serie B with 3 teams
/// at FlashLive (its table and matches) and at Transfermarkt (its clubs and squads).
public enum RapidAPIPayloads {
    /// Never a real key: the impersonating servers accept only this one.
    public static let apiKey = "test-key-0000-not-a-real-key"

    public struct Club: Sendable {
        public let id: String
        public let name: String
    }

    /// What a cold start that fills the cache for both leagues (leagues, teams, squads, matches,
    /// standings) costs at each provider, with these payloads. FlashLive: the tournaments list (1),
    /// Serie A's table, which also gives its teams (1), a squad per Serie A team, results and
    /// fixtures of each league (2 + 2), Serie B's table (1). Transfermarkt: Serie B's clubs (1) and
    /// a squad per club. With LigaPro's 16 and 10 teams: 23 + 11 = 34 (README).
    public static let coldStartRequests = (
        flashLive: 1 + 1 + serieATeams.count + 2 + 2 + 1,
        transfermarkt: 1 + serieBClubsAtTransfermarkt.count
    )

    public static let serieASeason = (season: "SaA26x01", stage: "StA26x01")
    public static let serieBSeason = (season: "SaB26x02", stage: "StB26x02")

    public static let serieATeams = [
        Club(id: "Fl1Bsc01", name: "Barcelona SC"), Club(id: "Fl1Eme02", name: "Emelec"),
        Club(id: "Fl1Ldu03", name: "LDU Quito"), Club(id: "Fl1Idv04", name: "Independiente del Valle"),
    ]
    public static let serieBTeamsAtFlashLive = [
        Club(id: "Fl2Cum01", name: "Cumbaya"), Club(id: "Fl2Imb02", name: "Imbabura"), Club(id: "Fl2Cha03", name: "Chacaritas"),
    ]
    public static let serieBClubsAtTransfermarkt = [
        Club(id: "41301", name: "Cumbayá FC"), Club(id: "62012", name: "Imbabura SC"), Club(id: "70333", name: "Chacaritas FC"),
    ]

    // MARK: FlashLive

    /// `GET /v1/tournaments/list?sport_id=1&locale=es_MX`: Ecuador's two LigaPro leagues among others.
    public static let flashLiveTournaments = """
        {"DATA":[{"LEAGUE_NAME":"Serie A","COUNTRY_NAME":"Italia","COUNTRY_ID":98,"ACTUAL_TOURNAMENT_SEASON_ID":"ItA26x09","GROUP_ID":"1","SEASON_ID":2026,"TEMPLATE_ID":"It0Tpl01","STAGES":[{"STAGE_ID":"ItS26x09","STAGE_NAME":"Main","OUT":"1"}]},\
        {"LEAGUE_NAME":"LigaPro Serie A","COUNTRY_NAME":"Ecuador","COUNTRY_ID":68,"ACTUAL_TOURNAMENT_SEASON_ID":"\(serieASeason.season)","GROUP_ID":"2","SEASON_ID":2026,"TEMPLATE_ID":"Ec0Tpl01","STAGES":[{"STAGE_ID":"\(serieASeason.stage)","STAGE_NAME":"Main","OUT":"1"}]},\
        {"LEAGUE_NAME":"Superliga Femenina","COUNTRY_NAME":"Ecuador","COUNTRY_ID":68,"ACTUAL_TOURNAMENT_SEASON_ID":"EcW26x03","GROUP_ID":"3","SEASON_ID":2026,"TEMPLATE_ID":"Ec0Tpl03","STAGES":[{"STAGE_ID":"EcWSt003","STAGE_NAME":"Main","OUT":"1"}]},\
        {"LEAGUE_NAME":"LigaPro Serie B","COUNTRY_NAME":"Ecuador","COUNTRY_ID":68,"ACTUAL_TOURNAMENT_SEASON_ID":"\(serieBSeason.season)","GROUP_ID":"4","SEASON_ID":2026,"TEMPLATE_ID":"Ec0Tpl02","STAGES":[{"STAGE_ID":"\(serieBSeason.stage)","STAGE_NAME":"Main","OUT":"1"}]}]}
        """

    /// `GET /v1/tournaments/standings?…&standing_type=overall`: one group of rows. The leader's row
    /// leaves out DRAWS and LOSSES, as FlashLive does for zero counts.
    public static let flashLiveStandingsSerieA = """
        {"DATA":[{"GROUP_ID":1,"GROUP":"Main","ROWS":[\
        {"RANKING":1,"TEAM_QUALIFICATION":"q1","TUC":"004682","TEAM_NAME":"Barcelona SC","TEAM_ID":"Fl1Bsc01","MATCHES_PLAYED":3,"WINS":3,"GOALS":"8:3","POINTS":9.0,"DYNAMIC_COLUMNS_DATA":["3","8:3","9"],"PARTICIPANT_ID":715,"DYNAMIC_COLUMNS_DATA_LIVE":null,"TEAM_IMAGE_PATH":"{cdn}/res/image/data/bsc-logo.png"},\
        {"RANKING":2,"TEAM_NAME":"Emelec","TEAM_ID":"Fl1Eme02","MATCHES_PLAYED":3,"WINS":1,"DRAWS":1,"LOSSES":1,"GOALS":"4:4","POINTS":4.0,"TEAM_IMAGE_PATH":"{cdn}/res/image/data/eme-logo.png"},\
        {"RANKING":3,"TEAM_NAME":"LDU Quito","TEAM_ID":"Fl1Ldu03","MATCHES_PLAYED":3,"WINS":1,"DRAWS":0,"LOSSES":2,"GOALS":"3:5","POINTS":3.0,"TEAM_IMAGE_PATH":"{cdn}/res/image/data/ldu-logo.png"},\
        {"RANKING":4,"TEAM_NAME":"Independiente del Valle","TEAM_ID":"Fl1Idv04","MATCHES_PLAYED":3,"WINS":0,"DRAWS":1,"LOSSES":2,"GOALS":"2:5","POINTS":1.0,"TEAM_IMAGE_PATH":"{cdn}/res/image/data/idv-logo.png"}]}]}
        """

    public static let flashLiveStandingsSerieB = """
        {"DATA":[{"GROUP_ID":1,"GROUP":"Main","ROWS":[\
        {"RANKING":1,"TEAM_NAME":"Imbabura","TEAM_ID":"Fl2Imb02","MATCHES_PLAYED":2,"WINS":2,"DRAWS":0,"LOSSES":0,"GOALS":"5:1","POINTS":6.0,"TEAM_IMAGE_PATH":"{cdn}/res/image/data/imb-logo.png"},\
        {"RANKING":2,"TEAM_NAME":"Cumbaya","TEAM_ID":"Fl2Cum01","MATCHES_PLAYED":2,"WINS":0,"DRAWS":1,"LOSSES":1,"GOALS":"2:3","POINTS":1.0,"TEAM_IMAGE_PATH":"{cdn}/res/image/data/cum-logo.png"},\
        {"RANKING":3,"TEAM_NAME":"Chacaritas","TEAM_ID":"Fl2Cha03","MATCHES_PLAYED":2,"WINS":0,"DRAWS":1,"LOSSES":1,"GOALS":"1:4","POINTS":1.0,"TEAM_IMAGE_PATH":"{cdn}/res/image/data/cha-logo.png"}]}]}
        """

    /// `GET /v1/teams/squad?sport_id=1&team_id=…`: groups of items; the coach has no photo, the
    /// forward no jersey number.
    public static func flashLiveSquad(team: String) -> String {
        """
        {"DATA":[{"GROUP_ID":12,"GROUP_LABEL":"Porteros","ITEMS":[{"PLAYER_ID":"\(team)G1","PLAYER_NAME":"Arquero \(team)","PLAYER_TYPE_ID":"GOALKEEPER","PLAYER_JERSEY_NUMBER":1,"PLAYER_FLAG_ID":68,"PLAYER_IMAGE_PATH":"{cdn}/res/image/data/\(team)-g1.png"}]},\
        {"GROUP_ID":13,"GROUP_LABEL":"Defensas","ITEMS":[{"PLAYER_ID":"\(team)D4","PLAYER_NAME":"Zaguero \(team)","PLAYER_TYPE_ID":"DEFENDER","PLAYER_JERSEY_NUMBER":4,"PLAYER_FLAG_ID":68,"PLAYER_IMAGE_PATH":"{cdn}/res/image/data/\(team)-d4.png"}]},\
        {"GROUP_ID":14,"GROUP_LABEL":"Centrocampistas","ITEMS":[{"PLAYER_ID":"\(team)M8","PLAYER_NAME":"Volante \(team)","PLAYER_TYPE_ID":"MIDFIELDER","PLAYER_JERSEY_NUMBER":8,"PLAYER_FLAG_ID":11,"PLAYER_IMAGE_PATH":"{cdn}/res/image/data/\(team)-m8.png"}]},\
        {"GROUP_ID":15,"GROUP_LABEL":"Delanteros","ITEMS":[{"PLAYER_ID":"\(team)F0","PLAYER_NAME":"Ariete \(team)","PLAYER_TYPE_ID":"FORWARD","PLAYER_FLAG_ID":68,"PLAYER_IMAGE_PATH":"{cdn}/res/image/data/\(team)-f0.png"}]},\
        {"GROUP_ID":16,"GROUP_LABEL":"Entrenador","ITEMS":[{"PLAYER_ID":"\(team)C0","PLAYER_NAME":"Director \(team)","PLAYER_TYPE_ID":"COACH","PLAYER_FLAG_ID":11}]}]}
        """
    }

    /// `GET /v1/tournaments/results?tournament_stage_id=…&page=1`: two played rounds and a
    /// postponed match (not played: left out). Scores are text, as FlashLive sends them.
    public static let flashLiveResultsSerieA = """
        {"DATA":[{"NAME":"Ecuador: LigaPro Serie A","TOURNAMENT_STAGE_ID":"\(serieASeason.stage)","EVENTS":[\
        {"EVENT_ID":"EvA00001","START_TIME":1771700400,"START_UTIME":1771700400,"STAGE_TYPE":"FINISHED","STAGE":"FINISHED","ROUND":"Jornada 1","HOME_NAME":"Barcelona SC","AWAY_NAME":"Emelec","HOME_SCORE_CURRENT":"3","AWAY_SCORE_CURRENT":"1","WINNER":1},\
        {"EVENT_ID":"EvA00002","START_TIME":1771709400,"STAGE_TYPE":"FINISHED","STAGE":"FINISHED","ROUND":"Jornada 1","HOME_NAME":"LDU Quito","AWAY_NAME":"Independiente del Valle","HOME_SCORE_CURRENT":"1","AWAY_SCORE_CURRENT":"1","WINNER":-1},\
        {"EVENT_ID":"EvA00003","START_TIME":1772305200,"STAGE_TYPE":"FINISHED","STAGE":"FINISHED","ROUND":"Jornada 2","HOME_NAME":"Independiente del Valle","AWAY_NAME":"Barcelona SC","HOME_SCORE_CURRENT":"0","AWAY_SCORE_CURRENT":"2","WINNER":2},\
        {"EVENT_ID":"EvA00004","START_TIME":1772314200,"STAGE_TYPE":"POSTPONED","STAGE":"POSTPONED","ROUND":"Jornada 2","HOME_NAME":"Emelec","AWAY_NAME":"LDU Quito"}]}]}
        """

    /// `GET /v1/tournaments/fixtures?…&page=1`: one more round, and a postponed fixture (left out).
    public static let flashLiveFixturesSerieA = """
        {"DATA":[{"NAME":"Ecuador: LigaPro Serie A","TOURNAMENT_STAGE_ID":"\(serieASeason.stage)","EVENTS":[\
        {"EVENT_ID":"EvA00006","START_TIME":1793800800,"STAGE_TYPE":"SCHEDULED","STAGE":"SCHEDULED","ROUND":"Jornada 4","HOME_NAME":"LDU Quito","AWAY_NAME":"Barcelona SC"},\
        {"EVENT_ID":"EvA00005","START_TIME":1793721600,"STAGE_TYPE":"SCHEDULED","STAGE":"SCHEDULED","ROUND":"Jornada 4","HOME_NAME":"Emelec","AWAY_NAME":"Independiente del Valle"},\
        {"EVENT_ID":"EvA00007","START_TIME":1793887200,"STAGE_TYPE":"SCHEDULED","STAGE":"POSTPONED","ROUND":"Jornada 4","HOME_NAME":"Emelec","AWAY_NAME":"LDU Quito"}]}]}
        """

    public static let flashLiveResultsSerieB = """
        {"DATA":[{"NAME":"Ecuador: LigaPro Serie B","TOURNAMENT_STAGE_ID":"\(serieBSeason.stage)","EVENTS":[\
        {"EVENT_ID":"EvB00001","START_TIME":1771795800,"STAGE_TYPE":"FINISHED","STAGE":"FINISHED","ROUND":"Jornada 1","HOME_NAME":"Imbabura","AWAY_NAME":"Cumbaya","HOME_SCORE_CURRENT":"2","AWAY_SCORE_CURRENT":"0","WINNER":1}]}]}
        """

    /// `GET /v1/events/highlights?event_id=…`.
    public static let flashLiveHighlights = """
        {"DATA":[{"PROPERTY_LINK":"https://www.youtube.com/watch?v=lig4spr0001","PROPERTY_TITLE":"Barcelona SC 3-1 Emelec","PROPERTY_SOURCE":"LigaPro"},\
        {"PROPERTY_LINK":"https://www.youtube.com/watch?v=lig4spr0002","PROPERTY_TITLE":"Resumen","PROPERTY_SOURCE":"LigaPro"}]}
        """

    // MARK: Transfermarkt

    /// `GET /clubs/list-by-competition?id=EC2L&domain=es`.
    public static let transfermarktClubsSerieB = """
        {"clubs":[{"id":"41301","name":"Cumbayá FC","image":"{cdn}/images/wappen/medium/41301.png?lm=1677580396"},\
        {"id":"62012","name":"Imbabura SC","image":"{cdn}/images/wappen/medium/62012.png?lm=1677580396"},\
        {"id":"70333","name":"Chacaritas FC","image":"{cdn}/images/wappen/medium/70333.png?lm=1677580396"}]}
        """

    /// `GET /clubs/get-squad?id=…&domain=es`: a midfielder with a number, a goalkeeper without
    /// one ("-"), and a player Transfermarkt gives no position for.
    public static func transfermarktSquad(club: String) -> String {
        """
        {"squad":[{"height":"1,75","foot":"Izquierdo","injury":null,"suspension":null,"joined":1740265200,"contractUntil":1767135600,"captain":true,"lastClub":null,"isLoan":null,"wasLoan":null,"id":"\(club)8","name":"Mediocampista \(club)","image":"{cdn}/portrait/medium/\(club)8.jpg?lm=1","imageLarge":null,"imageSource":"Prensa","shirtNumber":"8","age":27,"dateOfBirth":711410400,"heroImage":null,"isGoalkeeper":false,"positions":{"first":{"id":"10","name":"Mediocentro ofensivo","shortName":"MCO","group":"Centrocampista"},"second":{"id":"6","name":"Pivote","shortName":"PIV","group":"Centrocampista"}},"nationalities":[{"id":44,"name":"Ecuador","image":"{cdn}/images/flagge/small/44.png"}],"marketValue":{"value":25000,"currency":"€","progression":null}},\
        {"id":"\(club)1","name":"Portero \(club)","image":"{cdn}/portrait/medium/\(club)1.jpg?lm=1","shirtNumber":"-","isGoalkeeper":true,"positions":{"first":{"id":"1","name":"Portero","shortName":"POR","group":"Portero"}},"nationalities":[{"id":9,"name":"Argentina","image":"{cdn}/images/flagge/small/9.png"},{"id":44,"name":"Ecuador","image":"{cdn}/images/flagge/small/44.png"}]},\
        {"id":"\(club)0","name":"Juvenil \(club)","image":"{cdn}/portrait/medium/\(club)0.jpg?lm=1","isGoalkeeper":false,"nationalities":[{"id":44,"name":"Ecuador","image":"{cdn}/images/flagge/small/44.png"}]}]}
        """
    }

    /// Fills `{cdn}` with the image server's base URL (no trailing slash).
    public static func filled(_ template: String, cdn: URL) -> Data {
        var base = cdn.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        return Data(template.replacingOccurrences(of: "{cdn}", with: base).utf8)
    }
}
