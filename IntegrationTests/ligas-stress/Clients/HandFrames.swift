import Foundation
import LigasProtocol

/// Frames built by hand, valid on their own (their order is the test's business).
enum HandFrames {
    static let encoder = FrameEncoder()

    static func request(_ id: UInt32, _ call: Call, deadlineMs: UInt32? = nil, cache: CachePolicy = .default) -> [UInt8] {
        var bytes: [UInt8] = []
        try! encoder.appendRequest(id: id, Request(call, deadlineMs: deadlineMs, cache: cache), to: &bytes)
        return bytes
    }

    static func cancel(_ id: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        try! encoder.appendCancel(id: id, to: &bytes)
        return bytes
    }

    static func hello() -> [UInt8] {
        var bytes: [UInt8] = []
        try! encoder.appendHello(Hello(agent: "ligas-stress-raw"), to: &bytes)
        return bytes
    }

    /// One valid frame of a random kind — including kinds only a server may send.
    static func randomKind(id: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        switch Int.random(in: 0..<7) {
        case 0: bytes = hello()
        case 1: bytes = request(id, randomCall(), deadlineMs: Bool.random() ? UInt32.random(in: 0...50) : nil,
                                cache: CachePolicy.allCases.randomElement()!)
        case 2: try! encoder.append(.response, requestID: id, payload: PingResult(), to: &bytes)
        case 3: try! encoder.appendError(id: id, ErrorBody(code: .internal, message: "from a client"), to: &bytes)
        case 4: try! encoder.appendStreamChunk(id: id, (0..<Int.random(in: 0...512)).map { _ in UInt8.random(in: 0...255) }, to: &bytes)
        case 5: try! encoder.appendStreamEnd(id: id, StreamEnd(totalBytes: 3, sha256: Data(count: 32)), to: &bytes)
        default: bytes = cancel(id)
        }
        return bytes
    }

    static func randomCall() -> Call {
        switch Int.random(in: 0..<8) {
        case 0: Call(Methods.Ping.self)
        case 1: Call(Methods.Leagues.self)
        case 2: Call(Methods.Teams.self, TeamsArguments(league: Question.leagueIDs.randomElement()!))
        case 3: Call(Methods.Players.self, PlayersArguments(team: Question.teamIDs.randomElement()!))
        case 4: Call(Methods.Matches.self, MatchesArguments(league: Question.leagueIDs.randomElement()!))
        case 5: Call(Methods.Image.self, .team(Question.teamIDs.randomElement()!))
        case 6: Call(Methods.Status.self)
        default: Call(Methods.Describe.self)
        }
    }
}
