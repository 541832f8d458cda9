import Foundation
import LigasDomain

extension RemoteContract {
    /// The project's own REST contract (README, "Remote contracts"). Static-hostable: the
    /// bundled sample data is a directory in exactly this layout.
    ///
    ///     GET {base}/leagues/{league}/teams.json   -> {"teams":[{id,name,logo}]}
    ///     GET {base}/teams/{team}/players.json     -> {"players":[{id,name,photo?,number?,position,nationality?}]}
    ///     GET {base}/leagues/{league}/matches.json -> {"matches":{"previous":[…],"upcoming":[…]}}
    ///
    /// Image references may be absolute or relative to the base URL.
    public static let ligasREST = RemoteContract(
        dataSource: .ligasREST,
        endpoints: EndpointTable(
            teams: { "leagues/\($0)/teams.json" },
            players: { "teams/\($0)/players.json" },
            matches: { "leagues/\($0)/matches.json" },
            apiKeyHeader: "Authorization"
        ),
        mapper: LigasRESTMapper()
    )
}

struct LigasRESTMapper: SeedShapedPayloadMapper {
    func players(from data: Data, in context: MappingContext) throws -> [Player] {
        try PayloadDecoding.decode(PlayersPayload.self, from: data).players.map { try $0.player(in: context) }
    }
}
