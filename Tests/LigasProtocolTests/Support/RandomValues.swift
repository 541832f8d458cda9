import Foundation
import LigasProtocol
import LigasTestSupport

/// Random but valid values of every message type, from a seeded generator.
struct RandomValues {
    var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
    mutating func bool() -> Bool { Bool.random(using: &generator) }
    mutating func uint64() -> UInt64 {
        // Bias towards every head width: 0-23, 1, 2, 4 and 8 bytes.
        let limits: [UInt64] = [23, 0xFF, 0xFFFF, 0xFFFF_FFFF, .max]
        return UInt64.random(in: 0...limits[int(0...4)], using: &generator)
    }

    mutating func text(maxLength: Int = 40) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz ABCDEFG-0123456789áéíóúñÜ水𐅑\"\\/\n")
        let length = int(0...3) == 0 ? int(0...300) : int(0...maxLength)
        return String((0..<length).map { _ in alphabet[int(0...(alphabet.count - 1))] })
    }

    mutating func id() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-")
        return String((0..<int(1...30)).map { _ in alphabet[int(0...(alphabet.count - 1))] })
    }

    mutating func url() -> URL {
        let host = ["media.ligapro.ec", "img.example.org", "x.ec"][int(0...2)]
        return URL(string: "https://\(host)/\(id())/\(id()).png?v=\(int(0...99))") ?? URL(fileURLWithPath: "/")
    }

    mutating func date() -> Date {
        let milliseconds = Int64.random(in: -2_000_000_000_000...4_000_000_000_000, using: &generator)
        let rounded = bool() ? milliseconds / 1000 * 1000 : milliseconds // whole seconds and fractions
        return Date(timeIntervalSince1970: Double(rounded) / 1000)
    }

    mutating func optional<T>(_ make: (inout RandomValues) -> T) -> T? {
        bool() ? make(&self) : nil
    }

    mutating func array<T>(max: Int = 6, _ make: (inout RandomValues) -> T) -> [T] {
        (0..<int(0...max)).map { _ in make(&self) }
    }

    mutating func source() -> ResultSource { bool() ? .cache : .remote }

    mutating func league() -> League { League(id: id(), name: text(), logoURL: url(), dataSource: id()) }
    mutating func team() -> Team { Team(id: id(), name: text(), logoURL: url(), dataSource: id()) }

    mutating func player() -> Player {
        Player(
            id: id(), name: text(), photoURL: optional { $0.url() }, number: optional { $0.int(Int.min...Int.max) },
            position: Player.Position.allCases[int(0...4)], nationality: optional { $0.text() }, dataSource: id()
        )
    }

    mutating func match() -> Match { Match(date: date(), description: text(), home: text(), away: text()) }

    mutating func previousMatch() -> PreviousMatch {
        PreviousMatch(
            date: date(), description: text(), home: text(), away: text(), winner: text(), highlights: url(),
            homeScore: optional { $0.int(0...20) }, awayScore: optional { $0.int(0...20) })
    }

    mutating func providerQuota() -> ProviderQuota {
        ProviderQuota(
            provider: id(), month: text(), used: uint64(), budget: uint64(), remaining: uint64(),
            reportedLimit: optional { $0.uint64() }, reportedRemaining: optional { $0.uint64() })
    }

    mutating func standing() -> Standing {
        Standing(
            rank: int(1...40), team: team(), played: int(0...60), won: int(0...60), drawn: int(0...60), lost: int(0...60),
            goalsFor: int(0...200), goalsAgainst: int(0...200), points: int(0...180))
    }

    mutating func call() -> Call {
        switch int(0...11) {
        case 0: Call(Methods.Ping.self)
        case 1: Call(Methods.Leagues.self)
        case 2: Call(Methods.Teams.self, TeamsArguments(league: id()))
        case 3: Call(Methods.Players.self, PlayersArguments(team: id()))
        case 4: Call(Methods.Matches.self, MatchesArguments(league: id(), team: optional { $0.id() }))
        case 5: Call(Methods.Image.self, .url(url()))
        case 6: Call(Methods.Image.self, .league(id()))
        case 7: Call(Methods.Image.self, .team(id()))
        case 8: Call(Methods.Image.self, .player(id()))
        case 9: Call(Methods.Status.self)
        case 10: Call(Methods.Standings.self, StandingsArguments(league: id()))
        default: Call(Methods.Describe.self)
        }
    }

    mutating func request() -> Request {
        Request(call(), deadlineMs: optional { UInt32(truncatingIfNeeded: $0.uint64()) }, cache: CachePolicy.allCases[int(0...2)])
    }

    mutating func hello() -> Hello {
        Hello(
            versions: array(max: 4) { UInt8(truncatingIfNeeded: $0.uint64()) },
            maxFrameSize: UInt32(truncatingIfNeeded: uint64()), maxInFlight: UInt32(truncatingIfNeeded: uint64()),
            chunkSize: UInt32(truncatingIfNeeded: uint64()), agent: text()
        )
    }

    /// A random result of `method`. (A test helper, so one switch over the table is fine here.)
    mutating func reply(_ method: any RPCMethod.Type) -> Reply {
        switch method {
        case is Methods.Ping.Type: Reply(Methods.Ping.self, PingResult())
        case is Methods.Leagues.Type: Reply(Methods.Leagues.self, LeaguesResult(source: source(), value: array { $0.league() }))
        case is Methods.Teams.Type: Reply(Methods.Teams.self, TeamsResult(source: source(), value: array(max: 30) { $0.team() }))
        case is Methods.Players.Type: Reply(Methods.Players.self, PlayersResult(source: source(), value: array { $0.player() }))
        case is Methods.Matches.Type: Reply(Methods.Matches.self, MatchesResult(
            source: source(), value: Matches(previous: array { $0.previousMatch() }, upcoming: array { $0.match() })
        ))
        case is Methods.Standings.Type: Reply(Methods.Standings.self, StandingsResult(source: source(), value: array { $0.standing() }))
        case is Methods.Image.Type: Reply(Methods.Image.self, streamHeader())
        case is Methods.Status.Type: Reply(Methods.Status.self, DaemonStatus(
            version: text(), protocolVersion: UInt8(int(0...255)), uptimeSeconds: uint64(), openConnections: uint64(),
            inFlightRequests: uint64(), requestsServed: uint64(), cacheHits: uint64(), cacheMisses: uint64(),
            remoteFailures: uint64(),
            quota: optional { values in values.array { $0.providerQuota() } }
        ))
        case is Methods.Describe.Type: Reply(Methods.Describe.self, .ligas)
        default: preconditionFailure("RandomValues has no results of \(method.name)")
        }
    }

    mutating func streamHeader() -> StreamHeader {
        StreamHeader(contentType: text(), totalSize: optional { $0.uint64() }, source: source())
    }

    mutating func streamEnd() -> StreamEnd {
        StreamEnd(totalBytes: uint64(), sha256: Data((0..<32).map { _ in UInt8(int(0...255)) }))
    }

    mutating func errorBody() -> ErrorBody {
        let known = ErrorCode.known.map(\.code)
        return ErrorBody(
            code: bool() ? known[int(0...(known.count - 1))] : ErrorCode(rawValue: id()),
            message: text(),
            details: optional { values in Dictionary(values.array { ($0.id(), $0.text()) }, uniquingKeysWith: { first, _ in first }) }
        )
    }
}
