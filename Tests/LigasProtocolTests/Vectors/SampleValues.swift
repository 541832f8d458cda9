import Foundation
import LigasProtocol

/// Realistic values shared by the golden vectors, the describe check and the docs.
enum Sample {
    static func url(_ string: String) -> URL {
        guard let url = URL(string: string) else { preconditionFailure("bad sample URL \(string)") }
        return url
    }

    static func date(epochMilliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(epochMilliseconds) / 1000)
    }

    static let leagues = [
        League(
            id: "ligapro-serie-a", name: "LigaPro Serie A",
            logoURL: url("https://media.ligapro.ec/logos/serie-a.png"), dataSource: "ligapro-api"
        ),
        League(
            id: "ligapro-serie-b", name: "LigaPro Serie B",
            logoURL: url("https://media.ligapro.ec/logos/serie-b.png"), dataSource: "ligapro-api"
        ),
    ]

    static let teams = [
        Team(id: "ldu-quito", name: "Liga Deportiva Universitaria de Quito",
             logoURL: url("https://media.ligapro.ec/logos/equipos/ldu-quito.png"), dataSource: "ligapro-api"),
        Team(id: "barcelona-sc", name: "Barcelona Sporting Club",
             logoURL: url("https://media.ligapro.ec/logos/equipos/barcelona-sc.png"), dataSource: "ligapro-api"),
        Team(id: "independiente-del-valle", name: "Independiente del Valle",
             logoURL: url("https://media.ligapro.ec/logos/equipos/independiente-del-valle.png"), dataSource: "ligapro-api"),
    ]

    static let players = [
        Player(id: "ldu-quito-coach", name: "Pablo Sánchez", position: .coach, nationality: "Argentina", dataSource: "ligapro-api"),
        Player(
            id: "ldu-quito-1", name: "Alexander Domínguez", photoURL: url("https://media.ligapro.ec/jugadores/ldu-quito-1.jpg"),
            number: 22, position: .goalkeeper, nationality: "Ecuador", dataSource: "ligapro-api"
        ),
        Player(id: "ldu-quito-9", name: "Alex Arce", number: 9, position: .forward, dataSource: "ligapro-api"),
    ]

    static let matches = Matches(
        previous: [
            PreviousMatch(
                date: date(epochMilliseconds: 1_714_248_000_000), description: "Fecha 10",
                home: "Barcelona Sporting Club", away: "Liga Deportiva Universitaria de Quito",
                winner: "Liga Deportiva Universitaria de Quito",
                highlights: url("https://www.youtube.com/watch?v=ligapro-f10-bsc-ldu")
            ),
        ],
        upcoming: [
            Match(date: date(epochMilliseconds: 1_714_849_200_000), description: "Fecha 11",
                  home: "Liga Deportiva Universitaria de Quito", away: "Independiente del Valle"),
            Match(date: date(epochMilliseconds: 1_715_463_000_250), description: "Fecha 12",
                  home: "Club Sport Emelec", away: "Liga Deportiva Universitaria de Quito"),
        ]
    )

    /// Previous matches with their scores (a compatible addition: `matches` leaves them out).
    static let matchesWithScores = Matches(
        previous: [
            PreviousMatch(
                date: date(epochMilliseconds: 1_714_248_000_000), description: "Fecha 10",
                home: "Barcelona Sporting Club", away: "Liga Deportiva Universitaria de Quito",
                winner: "Liga Deportiva Universitaria de Quito",
                highlights: url("https://www.youtube.com/watch?v=ligapro-f10-bsc-ldu"), homeScore: 1, awayScore: 2
            ),
            PreviousMatch(
                date: date(epochMilliseconds: 1_714_334_400_000), description: "Fecha 10",
                home: "Independiente del Valle", away: "Club Sport Emelec", winner: "Draw",
                highlights: url("https://www.youtube.com/watch?v=ligapro-f10-idv-eme"), homeScore: 0, awayScore: 0
            ),
        ],
        upcoming: []
    )

    static let standings = [
        Standing(rank: 1, team: teams[0], played: 10, won: 7, drawn: 2, lost: 1, goalsFor: 19, goalsAgainst: 7, points: 23),
        Standing(rank: 2, team: teams[2], played: 10, won: 6, drawn: 3, lost: 1, goalsFor: 17, goalsAgainst: 9, points: 21),
        Standing(rank: 3, team: teams[1], played: 10, won: 6, drawn: 1, lost: 3, goalsFor: 15, goalsAgainst: 12, points: 19),
    ]

    static let status = DaemonStatus(
        version: "0.1.0", uptimeSeconds: 86_400, openConnections: 3, inFlightRequests: 1,
        requestsServed: 12_345, cacheHits: 11_000, cacheMisses: 1_345, remoteFailures: 7
    )

    /// Daemon counters with the RapidAPI providers' monthly requests (absent without them).
    static let statusWithQuota = DaemonStatus(
        version: "0.1.0", uptimeSeconds: 3_600, openConnections: 1, inFlightRequests: 0,
        requestsServed: 40, cacheHits: 12, cacheMisses: 28, remoteFailures: 0,
        quota: [
            ProviderQuota(provider: "flashlive", month: "2026-11", used: 23, budget: 500, remaining: 477, reportedLimit: 500, reportedRemaining: 477),
            ProviderQuota(provider: "transfermarkt", month: "2026-11", used: 11, budget: 500, remaining: 489),
        ]
    )

    /// A complete 1x1 transparent PNG (68 bytes).
    static let pngImage = Hex.decode(
        "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
            + "0000000b4944415478da636000020000050001e9fadcd80000000049454e44ae426082"
    ) ?? []

    /// SHA-256 of `pngImage`, precomputed (the library has no crypto dependency).
    static let pngSHA256 = Data(Hex.decode("2aa4fa20701cdd6d8d56046069001186b5267e3ee7d0ef618ad2f4a683723e11") ?? [])

    static let clientHello = Hello(
        versions: [1], maxFrameSize: 1_048_576, maxInFlight: 8, chunkSize: 32, agent: "ligas-cli/0.1.0"
    )
    /// Out of range: `maxFrameSize` must be at least 4096.
    static let clientHelloInvalidLimits = Hello(
        versions: [1], maxFrameSize: 4095, maxInFlight: 8, chunkSize: 65_536, agent: "ligas-cli/0.1.0"
    )
    static let serverHello = Hello(
        versions: [1], maxFrameSize: 1_048_576, maxInFlight: 32, chunkSize: 65_536, agent: "ligasd/0.1.0"
    )
}
