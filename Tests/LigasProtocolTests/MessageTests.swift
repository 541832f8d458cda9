import Foundation
import Testing
@testable import LigasProtocol
import LigasServer

@Suite("Messages")
struct MessageTests {
    private func requestBytes(_ value: CBORItem) -> [UInt8] { value.encoded() }

    private func map(_ pairs: [(String, CBORItem)]) -> CBORItem {
        .map(pairs.map { .init(key: .text($0.0), value: $0.1) })
    }

    @Test("calls are equal, and hash alike, exactly when their methods and arguments are")
    func callIdentity() {
        let serieA = Call(Methods.Teams.self, TeamsArguments(league: "serie-a"))
        #expect(serieA == Call(Methods.Teams.self, TeamsArguments(league: "serie-a")))
        #expect(serieA.hashValue == Call(Methods.Teams.self, TeamsArguments(league: "serie-a")).hashValue)
        #expect(serieA != Call(Methods.Teams.self, TeamsArguments(league: "serie-b")))
        #expect(serieA != Call(Methods.Standings.self, StandingsArguments(league: "serie-a")), "same fields, another method")
        #expect(Call(Methods.Ping.self) != Call(Methods.Leagues.self))
        #expect(Set([serieA, serieA, Call(Methods.Ping.self)]).count == 2)
    }

    @Test("an unknown method is reported as unknownMethod, whatever else in the request is invalid (PROTOCOL.md §6: the method is judged first)", arguments: [
        [("cache", CBORItem.text("default"))],
        [("cache", .text("sometimes"))],
        [("deadlineMs", .negative(0)), ("args", .text("not a map"))],
    ])
    func unknownMethod(others: [(String, CBORItem)]) {
        let bytes = requestBytes(map([("method", .text("lineups"))] + others))
        #expect(throws: ErrorBody(code: .unknownMethod, message: "unknown method \"lineups\"", details: ["method": "lineups"])) {
            try Request.decode(from: bytes, using: CBORDecoder())
        }
    }

    @Test("invalid arguments are badRequest with the offending path")
    func badArguments() {
        let cases: [(CBORItem, String)] = [
            (map([("method", .text("teams"))]), "args"),
            (map([("method", .text("teams")), ("args", map([("team", .text("x"))]))]), "args.league"),
            (map([("method", .text("teams")), ("args", map([("league", .unsigned(3))]))]), "args.league"),
            (map([("method", .text("players")), ("args", .text("ldu"))]), "args"),
            (map([("method", .text("ping")), ("cache", .text("sometimes"))]), "cache"),
            (map([("method", .text("ping")), ("deadlineMs", .negative(0))]), "deadlineMs"),
            (map([("method", .text("image")), ("args", map([]))]), "args"),
            (map([("method", .text("image")), ("args", map([("team", .text("a")), ("player", .text("b"))]))]), "args"),
            (map([("method", .unsigned(1))]), "method"),
        ]
        for (value, expectedPath) in cases {
            do {
                _ = try Request.decode(from: value.encoded(), using: CBORDecoder())
                Issue.record("\(value) decoded")
            } catch {
                #expect(error.code == .badRequest)
                #expect(error.details?["path"] == expectedPath, "\(value): \(error)")
            }
        }
    }

    @Test("requests ignore unknown fields and default the cache policy")
    func forwardCompatibleRequest() throws {
        let bytes = requestBytes(map([
            ("method", .text("teams")), ("args", map([("league", .text("ligapro-serie-a")), ("season", .unsigned(2024))])),
            ("priority", .text("high")),
        ]))
        #expect(try Request.decode(from: bytes) == Request(Methods.Teams.self, TeamsArguments(league: "ligapro-serie-a")))
    }

    @Test("an error code this client does not know still decodes")
    func unknownErrorCode() throws {
        let bytes = requestBytes(map([("code", .text("rateLimited")), ("message", .text("slow down"))]))
        let body = try CBORDecoder().decode(ErrorBody.self, from: bytes)
        #expect(body.code == ErrorCode(rawValue: "rateLimited"))
        #expect(!ErrorCode.known.map(\.code).contains(body.code))
    }

    @Test("a stream end must carry a 32-byte digest")
    func digestLength() {
        let bytes = requestBytes(map([("totalBytes", .unsigned(3)), ("sha256", .bytes([1, 2, 3]))]))
        #expect(throws: CBORDecodingError.invalidValue(reason: "sha256 must be 32 bytes, got 3", path: "sha256")) {
            try CBORDecoder().decode(StreamEnd.self, from: bytes)
        }
    }

    @Test("an undecodable payload of a fixed-type frame is badFrame")
    func badPayload() {
        let frame = Frame(header: FrameHeader(kind: .hello, requestID: 0), payload: [0xA0])
        #expect(throws: ErrorBody.self) { try Message(frame: frame) }
        do {
            _ = try Message(frame: frame)
        } catch {
            #expect(error.code == .badFrame)
        }
    }

    @Test("the server picks the highest common version and the tighter chunk size")
    func handshake() throws {
        let client = Hello(versions: [1, 2, 3], maxFrameSize: 8192, maxInFlight: 4, chunkSize: 65_536, agent: "c")
        let server = Hello(versions: [1], maxFrameSize: 1 << 20, maxInFlight: 16, chunkSize: 16_384, agent: "s")
        let (reply, session) = try Handshake.accept(client, server: server, supported: 1...2)
        #expect(reply.versions == [2])
        #expect(session == NegotiatedSession(version: 2, peerMaxFrameSize: 8192, maxInFlight: 16, chunkSize: 8184))
        let clientSession = try Handshake.complete(sent: client, received: reply)
        #expect(clientSession == NegotiatedSession(version: 2, peerMaxFrameSize: 1 << 20, maxInFlight: 16, chunkSize: 8184))
    }

    @Test("a hello without a common version, or with impossible limits, is refused")
    func handshakeRefused() {
        let server = Sample.serverHello
        #expect(throws: ErrorBody.self) {
            try Handshake.accept(Hello(versions: [7], agent: "future"), server: server)
        }
        do {
            _ = try Handshake.accept(Hello(versions: [7], agent: "future"), server: server)
        } catch {
            #expect(error.code == .unsupportedVersion)
        }
        do {
            _ = try Handshake.accept(Hello(versions: [1], maxFrameSize: 100, agent: "tiny"), server: server)
            Issue.record("accepted a 100-byte max frame size")
        } catch {
            #expect(error.code == .badFrame)
        }
        #expect(throws: ErrorBody.self) {
            try Handshake.complete(sent: Sample.clientHello, received: Hello(versions: [1, 2], agent: "s"))
        }
    }

    @Test("framing errors map to the codes sent before closing")
    func framingErrorCodes() {
        #expect(FrameError.frameTooLarge(length: 2, limit: 1).errorBody.code == .frameTooLarge)
        #expect(FrameError.unsupportedVersion(9).errorBody.code == .unsupportedVersion)
        #expect(FrameError.unknownFrameKind(9).errorBody.code == .badFrame)
        #expect(FrameError.frameTooShort(length: 1).errorBody.code == .badFrame)
    }

    @Test("the resultTooLarge error frame fits the smallest maxFrameSize a client may announce, whatever the numbers")
    func resultTooLargeAlwaysFits() throws {
        var frame: [UInt8] = []
        let encoder = FrameEncoder(maxFrameSize: ProtocolLimits.minimumMaxFrameSize)
        try encoder.appendError(id: .max, .resultTooLarge(bytes: .max, maxFrameSize: .max), to: &frame)
        #expect(frame.count - 4 <= ProtocolLimits.minimumMaxFrameSize)
    }
}
