import FoundationEssentials
import LigasDomain
import LigasProtocol

/// Domain values → wire DTOs, and domain errors → wire error bodies. The only place the two
/// vocabularies meet.
enum WireMapping {
    static func league(_ league: LigasDomain.League) -> LigasProtocol.League {
        .init(id: league.id, name: league.name, logoURL: league.logoURL, dataSource: league.dataSource.rawValue)
    }

    static func team(_ team: LigasDomain.Team) -> LigasProtocol.Team {
        .init(id: team.id, name: team.name, logoURL: team.logoURL, dataSource: team.dataSource.rawValue)
    }

    static func player(_ player: LigasDomain.Player) -> LigasProtocol.Player {
        .init(
            id: player.id, name: player.name, photoURL: player.photoURL, number: player.number,
            position: LigasProtocol.Player.Position(rawValue: player.position.rawValue) ?? .midfielder,
            nationality: player.nationality, dataSource: player.dataSource.rawValue)
    }

    static func matches(_ matches: LigasDomain.Matches) -> LigasProtocol.Matches {
        .init(
            previous: matches.previous.map {
                .init(date: $0.match.date, description: $0.match.description, home: $0.match.home,
                      away: $0.match.away, winner: $0.winner, highlights: $0.highlightsURL,
                      homeScore: $0.homeScore, awayScore: $0.awayScore)
            },
            upcoming: matches.upcoming.map {
                .init(date: $0.date, description: $0.description, home: $0.home, away: $0.away)
            })
    }

    static func standing(_ standing: LigasDomain.Standing) -> LigasProtocol.Standing {
        .init(
            rank: standing.rank, team: team(standing.team), played: standing.played, won: standing.won,
            drawn: standing.drawn, lost: standing.lost, goalsFor: standing.goalsFor, goalsAgainst: standing.goalsAgainst,
            points: standing.points)
    }

    static func quota(_ usage: QuotaUsage) -> ProviderQuota {
        .init(
            provider: usage.provider, month: usage.month, used: UInt64(max(0, usage.used)), budget: UInt64(max(0, usage.budget)),
            remaining: UInt64(max(0, usage.remaining)), reportedLimit: usage.reportedLimit.map { UInt64(max(0, $0)) },
            reportedRemaining: usage.reportedRemaining.map { UInt64(max(0, $0)) })
    }

    static func source(_ origin: Origin) -> ResultSource {
        switch origin {
        case .cache: .cache
        case .remote: .remote
        case .builtIn: .builtIn
        }
    }

    static func policy(_ policy: LigasProtocol.CachePolicy) -> LoadPolicy {
        switch policy {
        case .default: .default
        case .refresh: .refresh
        case .offline: .offline
        }
    }

    static func imageSubject(_ arguments: ImageArguments) -> ImageSubject {
        switch arguments {
        case .url(let url): .url(url)
        case .league(let id): .league(id)
        case .team(let id): .team(id)
        case .player(let id): .player(id)
        }
    }

    static func errorBody(_ error: any Error) -> ErrorBody {
        switch error {
        case let body as ErrorBody: body
        case LigasError.notFound(let why): ErrorBody(code: .notFound, message: why)
        case LigasError.connectivity(let why): ErrorBody(code: .connectivity, message: why)
        case LigasError.invalidData(let why): ErrorBody(code: .invalidData, message: why)
        case LigasError.noCache: ErrorBody(code: .noCache, message: "offline and nothing cached")
        case CacheError.unreadable(let why): ErrorBody(code: .noCache, message: "offline, and the cache could not be read: \(why)")
        case LigasError.quotaExceeded(let why): ErrorBody(code: .quotaExceeded, message: why)
        case is CancellationError: ErrorBody(code: .internal, message: "cancelled")
        default: ErrorBody(code: .internal, message: String(describing: error))
        }
    }
}
