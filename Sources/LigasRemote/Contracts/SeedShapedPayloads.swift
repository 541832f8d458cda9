import FoundationEssentials
import LigasDomain

/// The teams and matches shapes of the seed football API, which the REST contract adopted too.
/// A mapper for either contract only adds what differs (players).
protocol SeedShapedPayloadMapper: PayloadMapper {}

extension SeedShapedPayloadMapper {
    func teams(from data: Data, in context: MappingContext) throws -> [Team] {
        try PayloadDecoding.decode(TeamsPayload.self, from: data).teams.map { try $0.team(in: context) }
    }

    func matches(from data: Data, in context: MappingContext) throws -> Matches {
        try PayloadDecoding.decode(MatchesPayload.self, from: data).matches.domain(in: context)
    }
}

struct TeamsPayload: Decodable {
    struct Item: Decodable {
        let id: String
        let name: String
        let logo: String

        func team(in context: MappingContext) throws -> Team {
            Team(
                id: id, name: name,
                logoURL: try PayloadDecoding.url(logo, field: "logo", in: context),
                dataSource: context.dataSource
            )
        }
    }

    let teams: [Item]
}

struct PlayersPayload: Decodable {
    struct Item: Decodable {
        let id: String
        let name: String
        let photo: String?
        let number: Int?
        let position: Player.Position
        let nationality: String?

        func player(in context: MappingContext) throws -> Player {
            Player(
                id: id, name: name,
                photoURL: try photo.map { try PayloadDecoding.url($0, field: "photo", in: context) },
                number: number, position: position, nationality: nationality,
                dataSource: context.dataSource
            )
        }
    }

    let players: [Item]
}

struct MatchesPayload: Decodable {
    struct Previous: Decodable {
        let date: Date
        let description: String
        let home: String
        let away: String
        let winner: String
        let highlights: String
        let homeScore: Int?
        let awayScore: Int?
    }

    struct Upcoming: Decodable {
        let date: Date
        let description: String
        let home: String
        let away: String
    }

    struct Lists: Decodable {
        let previous: [Previous]
        let upcoming: [Upcoming]

        func domain(in context: MappingContext) throws -> Matches {
            Matches(
                previous: try previous.map {
                    PreviousMatch(
                        match: Match(date: $0.date, description: $0.description, home: $0.home, away: $0.away),
                        winner: $0.winner,
                        highlightsURL: try PayloadDecoding.url($0.highlights, field: "highlights", in: context),
                        homeScore: $0.homeScore, awayScore: $0.awayScore
                    )
                },
                upcoming: upcoming.map { Match(date: $0.date, description: $0.description, home: $0.home, away: $0.away) }
            )
        }
    }

    let matches: Lists
}
