import FoundationEssentials
import LigasDomain

extension RemoteContract {
    /// Transfermarkt on RapidAPI (`https://transfermarket.p.rapidapi.com`, the provider's own
    /// spelling), Spanish domain:
    ///
    ///     GET clubs/list-by-competition?id=EC2L&domain=es  -> {"clubs":[{id, name, image}]}
    ///     GET clubs/get-squad?id=…&domain=es               -> {"squad":[{id, name, image, shirtNumber, positions.first.group, nationalities[{name}]}]}
    ///
    /// It has no fixtures or tables here: those of a league it serves come from FlashLive.
    public static let transfermarkt = RemoteContract(
        dataSource: .transfermarkt,
        endpoints: EndpointTable(
            paths: { feed, target in Transfermarkt.paths(feed, target) },
            apiKeyHeader: RapidAPI.keyHeader,
            fixedHeaders: [RapidAPI.hostHeader: Transfermarkt.host]
        ),
        mapper: TransfermarktMapper()
    )
}

/// Transfermarkt's fixed parameters.
public enum Transfermarkt {
    public static let host = "transfermarket.p.rapidapi.com"
    public static let defaultBaseURL = URL(string: "https://\(host)/")!
    static let domain = "es"
    /// Transfermarkt's competition codes of the LigaPro leagues.
    static let competitions = ["serie-a": "EC1L", "serie-b": "EC2L"]

    static func paths(_ feed: EndpointTable.Feed, _ target: EndpointTable.Target) -> [String]? {
        switch feed {
        case .teams: competitions[target.id].map { ["clubs/list-by-competition?id=\($0)&domain=\(domain)"] }
        case .players: ["clubs/get-squad?id=\(target.id)&domain=\(domain)"]
        case .matches, .standings: nil
        }
    }
}

struct TransfermarktMapper: PayloadMapper {
    func teams(from data: Data, in context: MappingContext) throws -> [Team] {
        try PayloadDecoding.decode(Clubs.self, from: data).clubs.map { club in
            Team(
                id: club.id.text, name: club.name,
                logoURL: try PayloadDecoding.url(club.image, field: "image", in: context), dataSource: context.dataSource)
        }
    }

    func players(from data: Data, in context: MappingContext) throws -> [Player] {
        try PayloadDecoding.decode(Squad.self, from: data).squad.map { try $0.player(in: context) }
    }

    func matches(from data: Data, in context: MappingContext) throws -> Matches {
        throw LigasError.notFound("\(context.dataSource) provides no matches")
    }

    func standings(from data: Data, in context: MappingContext) throws -> [Standing] {
        throw LigasError.notFound("\(context.dataSource) provides no standings")
    }

    struct Clubs: Decodable {
        struct Club: Decodable {
            let id: LenientText
            let name: String
            let image: String
        }

        let clubs: [Club]
    }

    struct Squad: Decodable {
        struct Member: Decodable {
            struct Positions: Decodable {
                struct Position: Decodable {
                    /// The position's family, in the domain's language: "Portero", "Defensa", "Centrocampista", "Delantero".
                    let group: String?
                }

                let first: Position?
            }

            struct Nationality: Decodable {
                let name: String
            }

            let id: LenientText
            let name: String
            let image: String?
            /// Text: "8", or "-" when none is known.
            let shirtNumber: String?
            let isGoalkeeper: Bool?
            let positions: Positions?
            let nationalities: [Nationality]?

            func player(in context: MappingContext) throws -> Player {
                Player(
                    id: id.text, name: name,
                    photoURL: try image.map { try PayloadDecoding.url($0, field: "image", in: context) },
                    number: shirtNumber.flatMap { Int($0) },
                    position: position, nationality: nationalities?.first?.name, dataSource: context.dataSource)
            }

            /// By the first position's family; without one, a goalkeeper is one and anyone else is
            /// listed as a midfielder (the protocol needs a position: see README).
            var position: Player.Position {
                let group = positions?.first?.group.map { Folded($0).text } ?? ""
                let families: [(prefixes: [String], position: Player.Position)] = [
                    (["port", "goal"], .goalkeeper), (["def"], .defender), (["centro", "medio", "mid"], .midfielder),
                    (["del", "att", "forw", "strik"], .forward), (["entren", "coach", "manager"], .coach),
                ]
                if let family = families.first(where: { $0.prefixes.contains(where: group.hasPrefix) }) { return family.position }
                return isGoalkeeper == true ? .goalkeeper : .midfielder
            }
        }

        let squad: [Member]
    }
}
