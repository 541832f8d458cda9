import FoundationEssentials
import LigasDomain

extension RemoteContract {
    /// The project's own REST contract (README, "Remote contracts"). Static-hostable: the
    /// bundled sample data is a directory in exactly this layout.
    ///
    ///     GET {base}/leagues/{league}/teams.json   -> {"teams":[{id,name,logo}]}
    ///     GET {base}/teams/{team}/players.json     -> {"players":[{id,name,photo?,number?,position,nationality?}]}
    ///     GET {base}/leagues/{league}/matches.json -> {"matches":{"previous":[…],"upcoming":[…]}}
    ///     GET {base}/leagues/{league}/standings.json -> {"standings":[{rank,team:{id,name,logo},played,…}]}
    ///
    /// Image references may be absolute or relative to the base URL.
    public static let ligasREST = RemoteContract(
        dataSource: .ligasREST,
        endpoints: EndpointTable(
            teams: { "leagues/\($0)/teams.json" },
            players: { "teams/\($0)/players.json" },
            matches: { "leagues/\($0)/matches.json" },
            standings: { "leagues/\($0)/standings.json" },
            apiKeyHeader: "Authorization"
        ),
        mapper: LigasRESTMapper()
    )
}

struct LigasRESTMapper: SeedShapedPayloadMapper {
    func players(from data: Data, in context: MappingContext) throws -> [Player] {
        try PayloadDecoding.decode(PlayersPayload.self, from: data).players.map { try $0.player(in: context) }
    }

    func standings(from data: Data, in context: MappingContext) throws -> [Standing] {
        try PayloadDecoding.decode(StandingsPayload.self, from: data).standings.map { try $0.standing(in: context) }
    }
}

/// `{"standings":[{"rank":1,"team":{"id","name","logo"},"played","won","drawn","lost","goalsFor","goalsAgainst","points"}]}`
struct StandingsPayload: Decodable {
    struct Row: Decodable {
        let rank: Int
        let team: TeamsPayload.Item
        let played: Int
        let won: Int
        let drawn: Int
        let lost: Int
        let goalsFor: Int
        let goalsAgainst: Int
        let points: Int

        func standing(in context: MappingContext) throws -> Standing {
            Standing(
                rank: rank, team: try team.team(in: context), played: played, won: won, drawn: drawn, lost: lost,
                goalsFor: goalsFor, goalsAgainst: goalsAgainst, points: points)
        }
    }

    let standings: [Row]
}
