import Foundation
import LigasProtocol
@testable import LigasClient
import Testing

@Suite("LigasClient: answers and requests it has seen before")
struct ClientRememberedAnswersTests {
    static func payload(_ result: TeamsResult) throws -> [UInt8] { try CBOREncoder().encode(result) }

    @Test("The same answer again is the same value, decoded once; a changed answer is decoded anew, never taken for the old one")
    func sameBytesDecodedOnce() throws {
        let answers = DecodedAnswers()
        let first = TeamsResult.named(["emelec", "aucas"])
        #expect(try answers.value(of: Self.payload(first), answering: Methods.Teams.self) == first)
        #expect(try answers.value(of: Self.payload(first), answering: Methods.Teams.self) == first)
        #expect(answers.decodeCount == 1)

        let changed = TeamsResult.named(["emelec", "aucas", "delfin"])
        #expect(try answers.value(of: Self.payload(changed), answering: Methods.Teams.self) == changed)
        let renamed = TeamsResult.named(["emelec", "aucaz"])  // same length as `first`, one byte apart
        #expect(try answers.value(of: Self.payload(renamed), answering: Methods.Teams.self) == renamed)
        #expect(answers.decodeCount == 3)
        #expect(try answers.value(of: Self.payload(first), answering: Methods.Teams.self) == first, "still remembered")
        #expect(answers.decodeCount == 3)
    }

    @Test("At most a few answers are remembered per method, the least recently used forgotten first, and none larger than the bound")
    func bounded() throws {
        let answers = DecodedAnswers()
        let results = (0...DecodedAnswers.perMethod).map { TeamsResult.named(["team-\($0)"]) }
        func ask(_ result: TeamsResult) throws { #expect(try answers.value(of: Self.payload(result), answering: Methods.Teams.self) == result) }
        for result in results.dropLast() { try ask(result) }
        try ask(results[0])  // used again: now the most recent
        #expect(answers.decodeCount == DecodedAnswers.perMethod)
        try ask(results.last!)  // one too many: results[1], the least recently used, goes
        try ask(results[0])
        try ask(results.last!)
        #expect(answers.decodeCount == DecodedAnswers.perMethod + 1)
        try ask(results[1])
        #expect(answers.decodeCount == DecodedAnswers.perMethod + 2)

        let large = TeamsResult.named((0..<2_000).map { "a-team-with-a-long-identifier-\($0)" })
        let bytes = try Self.payload(large)
        #expect(bytes.count > DecodedAnswers.largestRemembered)
        #expect(try answers.value(of: bytes, answering: Methods.Teams.self) == large)
        #expect(try answers.value(of: bytes, answering: Methods.Teams.self) == large)
        #expect(answers.decodeCount == DecodedAnswers.perMethod + 4, "decoded each time")
    }

    @Test("An undecodable answer is an error each time, and is not remembered")
    func undecodable() throws {
        let answers = DecodedAnswers()
        let bytes = try CBOREncoder().encode(["source": "cache"])
        #expect(throws: (any Error).self) { try answers.value(of: bytes, answering: Methods.Teams.self) }
        #expect(throws: (any Error).self) { try answers.value(of: bytes, answering: Methods.Teams.self) }
        #expect(answers.decodeCount == 2)
    }

    @Test("A request sent again has the bytes it was first encoded to, framed as any request; another request gets its own")
    func encodedRequests() throws {
        var requests = EncodedRequests()
        let serieA = Request(Call(Methods.Teams.self, TeamsArguments(league: "serie-a")))
        let first = try requests.payload(of: serieA)
        #expect(first == (try CBOREncoder().encode(serieA)))
        let again = try requests.payload(of: Request(Call(Methods.Teams.self, TeamsArguments(league: "serie-a"))))
        #expect(again.withUnsafeBufferPointer { $0.baseAddress } == first.withUnsafeBufferPointer { $0.baseAddress }, "the kept bytes")
        var framed: [UInt8] = [], framedAsRequest: [UInt8] = []
        try FrameEncoder().appendRaw(.request, requestID: 7, bytes: again, to: &framed)
        try FrameEncoder().appendRequest(id: 7, serieA, to: &framedAsRequest)
        #expect(framed == framedAsRequest)

        for request in [
            Request(Call(Methods.Teams.self, TeamsArguments(league: "serie-b"))),
            Request(Call(Methods.Teams.self, TeamsArguments(league: "serie-a")), cache: .refresh),
            Request(Call(Methods.Teams.self, TeamsArguments(league: "serie-a")), deadlineMs: 250),
            Request(Call(Methods.Standings.self, StandingsArguments(league: "serie-a"))),
        ] {
            #expect(try requests.payload(of: request) == CBOREncoder().encode(request))
        }
        for index in 0...EncodedRequests.capacity {
            let request = Request(Call(Methods.Players.self, PlayersArguments(team: "team-\(index)")))
            #expect(try requests.payload(of: request) == CBOREncoder().encode(request), "past the capacity too")
        }
        let large = Request(Call(Methods.Players.self, PlayersArguments(team: String(repeating: "x", count: EncodedRequests.largestRemembered))))
        let once = try requests.payload(of: large), twice = try requests.payload(of: large)
        let encoded = try CBOREncoder().encode(large)
        #expect(once == encoded)
        #expect(twice == encoded)
        #expect(once.withUnsafeBufferPointer { $0.baseAddress } != twice.withUnsafeBufferPointer { $0.baseAddress }, "encoded each time")
    }
}
