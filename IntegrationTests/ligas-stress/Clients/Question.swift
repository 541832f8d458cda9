import Foundation
import LigasClient
import LigasProtocol

/// One question a well-behaved client asks ligasd, over the bundled sample data.
enum Question: Sendable, CustomStringConvertible {
    case ping
    case leagues
    case teams(String)
    case players(String)
    case matches(String)
    case status
    case image(ImageArguments)

    static let leagueIDs = ["serie-a", "serie-b"]
    static let teamIDs = [
        "barcelona-sc", "emelec", "ldu-quito", "independiente-del-valle", "universidad-catolica", "aucas",
        "el-nacional", "deportivo-cuenca", "delfin", "orense", "mushuc-runa", "tecnico-universitario", "libertad",
        "macara", "manta-fc", "vinotinto",
        "9-de-octubre", "buhos-ulvr", "chacaritas", "cumbaya", "gualaceo", "guayaquil-city", "imbabura",
        "independiente-juniors", "leones-del-norte", "san-antonio",
    ]

    /// A typical mix: mostly cached feeds, some remote-first matches, a few image streams.
    /// `excluding` names methods to leave out (e.g. "status").
    static func random(images: Bool = true, excluding: Set<String> = []) -> Question {
        while true {
            let question = anyOne(images: images)
            if !excluding.contains(question.method) { return question }
        }
    }

    private static func anyOne(images: Bool) -> Question {
        switch Int.random(in: 0..<20) {
        case 0..<3: .ping
        case 3..<6: .leagues
        case 6..<10: .teams(leagueIDs.randomElement()!)
        case 10..<14: .players(teamIDs.randomElement()!)
        case 14..<16: .matches(leagueIDs.randomElement()!)
        case 16..<18: .status
        default: images ? .image(.team(teamIDs.randomElement()!)) : .ping
        }
    }

    var method: String {
        switch self {
        case .ping: "ping"
        case .leagues: "leagues"
        case .teams: "teams"
        case .players: "players"
        case .matches: "matches"
        case .status: "status"
        case .image: "image"
        }
    }

    var description: String {
        switch self {
        case .ping: "ping"
        case .leagues: "leagues"
        case .teams(let league): "teams(\(league))"
        case .players(let team): "players(\(team))"
        case .matches(let league): "matches(\(league))"
        case .status: "status"
        case .image(let which): "image(\(which))"
        }
    }

    /// Asks, reads the whole answer (every chunk of an image, checked by the library against
    /// the daemon's SHA-256), and returns where it came from (nil for ping/status).
    @discardableResult
    func ask(_ client: LigasClient, cache: CachePolicy = .default) async throws -> ResultSource? {
        switch self {
        case .ping:
            try await client.ping()
            return nil
        case .leagues: return try await client.leagues(cache: cache).source
        case .teams(let league): return try await client.teams(league: league, cache: cache).source
        case .players(let team): return try await client.players(team: team, cache: cache).source
        case .matches(let league): return try await client.matches(league: league, cache: cache).source
        case .status:
            _ = try await client.status()
            return nil
        case .image(let which):
            let download = try await client.image(which, cache: cache)
            var bytes = 0
            for try await chunk in download { bytes += chunk.count }
            if let expected = download.header.totalSize, expected != UInt64(bytes) {
                throw ClientError.integrityCheckFailed("\(bytes) bytes, announced \(expected)")
            }
            return download.header.source
        }
    }
}
