import FoundationEssentials
import LigasDomain

extension RemoteContract {
    /// The seed football API contract. It serves a single league and has no players:
    ///
    ///     GET {base}/teams          -> {"teams":[{"id","name","logo"}]}
    ///     GET {base}/teams/matches  -> {"matches":{"previous":[…],"upcoming":[…]}}
    public static let seedFootballAPI = RemoteContract(
        dataSource: .seedFootballAPI,
        endpoints: EndpointTable(
            teams: { _ in "teams" },
            players: { _ in nil },
            matches: { _ in "teams/matches" },
            standings: { _ in nil },
            apiKeyHeader: "X-API-Key"
        ),
        mapper: SeedFootballAPIMapper()
    )
}

struct SeedFootballAPIMapper: SeedShapedPayloadMapper {
    func players(from data: Data, in context: MappingContext) throws -> [Player] {
        throw LigasError.notFound("\(context.dataSource) provides no players")
    }

    func standings(from data: Data, in context: MappingContext) throws -> [Standing] {
        throw LigasError.notFound("\(context.dataSource) provides no standings")
    }
}
