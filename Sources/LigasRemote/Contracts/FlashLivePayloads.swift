import FoundationEssentials
import LigasDomain

/// FlashLive's payloads, mapped into the domain. Field names are FlashLive's (upper snake case).
struct FlashLiveMapper: PayloadMapper {
    func teams(from data: Data, in context: MappingContext) throws -> [Team] {
        try standings(from: data, in: context).map(\.team)
    }

    func standings(from data: Data, in context: MappingContext) throws -> [Standing] {
        let groups = try PayloadDecoding.decode(Envelope<StandingsGroup>.self, from: data).DATA
        // `standing_type=overall` of a single-table league: the first group is the table.
        return try (groups.first?.ROWS ?? []).map { try $0.standing(in: context) }
    }

    func players(from data: Data, in context: MappingContext) throws -> [Player] {
        var seen = Set<String>()
        return try PayloadDecoding.decode(Envelope<SquadGroup>.self, from: data).DATA
            .flatMap(\.ITEMS)
            .filter { seen.insert($0.PLAYER_ID).inserted }
            .map { try $0.player(in: context) }
    }

    func matches(from data: Data, in context: MappingContext) throws -> Matches {
        try matches(fromParts: [data, nil], in: context)
    }

    /// Parts: the results page, then the fixtures page; an absent part had no events (404).
    func matches(fromParts parts: [Data?], in context: MappingContext) throws -> Matches {
        guard parts.count == 2 else { throw LigasError.invalidData("expected results and fixtures") }
        let results = try parts[0].map { try PayloadDecoding.decode(Envelope<EventsGroup>.self, from: $0).DATA.flatMap(\.EVENTS) } ?? []
        let fixtures = try parts[1].map { try PayloadDecoding.decode(Envelope<EventsGroup>.self, from: $0).DATA.flatMap(\.EVENTS) } ?? []
        return Matches(
            previous: try results.filter(\.isFinished).map { try $0.previousMatch() }.sorted { $0.match.date < $1.match.date },
            upcoming: fixtures.filter(\.isScheduled).map(\.match).sorted { $0.date < $1.date }
        )
    }

    func seasons(from data: Data, in context: MappingContext) throws -> [LeagueSeason] {
        let tournaments = try PayloadDecoding.decode(Envelope<Tournament>.self, from: data).DATA
        var found: [String: LeagueSeason] = [:]
        for tournament in tournaments {
            guard let league = tournament.ecuadorianLeague, found[league] == nil,
                  let stage = tournament.STAGES?.first?.STAGE_ID
            else { continue }
            found[league] = LeagueSeason(league: league, seasonID: tournament.ACTUAL_TOURNAMENT_SEASON_ID, stageID: stage)
        }
        return found.values.sorted { $0.league < $1.league }
    }

    /// The highlight links of one match (`v1/events/highlights`).
    func highlights(from data: Data) throws -> [URL] {
        try PayloadDecoding.decode(Envelope<Highlight>.self, from: data).DATA.compactMap { URL(string: $0.PROPERTY_LINK) }
    }
}

// MARK: - Shapes

// swiftlint:disable identifier_name
struct Envelope<Item: Decodable>: Decodable {
    let DATA: [Item]
}

struct StandingsGroup: Decodable {
    let ROWS: [Row]

    struct Row: Decodable {
        let RANKING: Int
        let TEAM_ID: String
        let TEAM_NAME: String
        let TEAM_IMAGE_PATH: String
        let MATCHES_PLAYED: Int
        let WINS: Int?
        let DRAWS: Int?
        let LOSSES: Int?
        /// "scored:conceded", e.g. "8:3".
        let GOALS: String
        /// A number that FlashLive writes as a float (9.0).
        let POINTS: Double

        func standing(in context: MappingContext) throws -> Standing {
            let goals = GOALS.split(separator: ":").compactMap { Int($0.trimmingWhitespace()) }
            guard goals.count == 2 else { throw LigasError.invalidData("GOALS of \(TEAM_NAME) is not scored:conceded: \(GOALS)") }
            // A table's figures are small: anything else is a provider's mistake, refused by name
            // rather than trapped on (a float too big for an Int, an overflowing subtraction).
            let counts = [RANKING, MATCHES_PLAYED, WINS ?? 0, DRAWS ?? 0, LOSSES ?? 0, goals[0], goals[1]]
            guard counts.allSatisfy({ (0...100_000).contains($0) }), POINTS.isFinite, abs(POINTS) <= 100_000 else {
                throw LigasError.invalidData("the table row of \(TEAM_NAME) has figures out of range")
            }
            // Zero counts may be left out: what is missing follows from the matches played.
            let won = WINS ?? 0
            let drawn = DRAWS ?? max(0, MATCHES_PLAYED - won - (LOSSES ?? 0))
            let lost = LOSSES ?? max(0, MATCHES_PLAYED - won - drawn)
            return Standing(
                rank: RANKING,
                team: Team(
                    id: TEAM_ID, name: TEAM_NAME,
                    logoURL: try PayloadDecoding.url(TEAM_IMAGE_PATH, field: "TEAM_IMAGE_PATH", in: context),
                    dataSource: context.dataSource),
                played: MATCHES_PLAYED, won: won, drawn: drawn, lost: lost,
                goalsFor: goals[0], goalsAgainst: goals[1], points: Int(POINTS.rounded()))
        }
    }
}

struct SquadGroup: Decodable {
    let ITEMS: [Item]

    struct Item: Decodable {
        let PLAYER_ID: String
        let PLAYER_NAME: String
        let PLAYER_TYPE_ID: String
        let PLAYER_JERSEY_NUMBER: Int?
        /// A FlashLive country number, not a name: no nationality comes from FlashLive.
        let PLAYER_FLAG_ID: Int?
        let PLAYER_IMAGE_PATH: String?

        func player(in context: MappingContext) throws -> Player {
            guard let position = Self.positions[PLAYER_TYPE_ID] else {
                throw LigasError.invalidData("unknown PLAYER_TYPE_ID \(PLAYER_TYPE_ID) of \(PLAYER_NAME)")
            }
            return Player(
                id: PLAYER_ID, name: PLAYER_NAME,
                photoURL: try PLAYER_IMAGE_PATH.map { try PayloadDecoding.url($0, field: "PLAYER_IMAGE_PATH", in: context) },
                number: PLAYER_JERSEY_NUMBER, position: position, nationality: nil, dataSource: context.dataSource)
        }

        static let positions: [String: Player.Position] = [
            "COACH": .coach, "GOALKEEPER": .goalkeeper, "DEFENDER": .defender, "MIDFIELDER": .midfielder, "FORWARD": .forward,
        ]
    }
}

struct EventsGroup: Decodable {
    let EVENTS: [Event]

    struct Event: Decodable {
        let EVENT_ID: String
        /// Unix seconds.
        let START_TIME: Int
        let HOME_NAME: String
        let AWAY_NAME: String
        let HOME_SCORE_CURRENT: LenientInt?
        let AWAY_SCORE_CURRENT: LenientInt?
        /// 1: the home side won, 2: the away side; anything else a draw.
        let WINNER: LenientInt?
        /// FINISHED, SCHEDULED, LIVE…
        let STAGE_TYPE: String?
        /// The detail: e.g. POSTPONED, CANCELED.
        let STAGE: String?
        let ROUND: String?

        var isFinished: Bool { STAGE_TYPE == "FINISHED" }
        var isScheduled: Bool {
            STAGE_TYPE == "SCHEDULED" && !["POSTPONED", "CANCELED", "CANCELLED", "ABANDONED"].contains(STAGE ?? "")
        }

        var match: Match {
            Match(
                date: Date(timeIntervalSince1970: TimeInterval(START_TIME)),
                description: ROUND ?? "\(HOME_NAME) vs. \(AWAY_NAME)", home: HOME_NAME, away: AWAY_NAME)
        }

        func previousMatch() throws -> PreviousMatch {
            guard let page = FlashLive.matchPage(eventID: EVENT_ID) else {
                throw LigasError.invalidData("EVENT_ID is not a plain id: \(EVENT_ID)")
            }
            let winner = switch WINNER?.value {
            case 1: HOME_NAME
            case 2: AWAY_NAME
            default: "Draw"
            }
            return PreviousMatch(
                match: match, winner: winner, highlightsURL: page,
                homeScore: HOME_SCORE_CURRENT?.value, awayScore: AWAY_SCORE_CURRENT?.value)
        }
    }
}

struct Tournament: Decodable {
    let LEAGUE_NAME: String
    let COUNTRY_NAME: String?
    let ACTUAL_TOURNAMENT_SEASON_ID: String
    let STAGES: [Stage]?

    struct Stage: Decodable {
        let STAGE_ID: String
    }

    /// Which LigaPro league this is, by FlashLive's names: Ecuador's "…Serie B" is `serie-b`, its
    /// "…Serie A" or "LigaPro" is `serie-a`; women's leagues and cups are neither.
    var ecuadorianLeague: String? {
        guard COUNTRY_NAME.map(Folded.init)?.text == "ecuador" else { return nil }
        let name = Folded(LEAGUE_NAME).text
        if ["women", "femen", "copa", "cup", "reserv", "sub-"].contains(where: name.contains) { return nil }
        if name.contains("serie b") { return "serie-b" }
        if name.contains("serie a") || name.contains("ligapro") || name.contains("liga pro") { return "serie-a" }
        return nil
    }
}

struct Highlight: Decodable {
    let PROPERTY_LINK: String
}
// swiftlint:enable identifier_name
