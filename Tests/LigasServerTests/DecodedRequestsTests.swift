import LigasProtocol
@testable import LigasServer
import Testing

@Suite("Server: requests a connection sent before")
struct DecodedRequestsTests {
    @Test("A request sent again is not decoded again; another request, or the same one with another policy, is decoded")
    func sameBytesDecodedOnce() throws {
        var requests = DecodedRequests()
        let serieA = Request(Call(Methods.Teams.self, TeamsArguments(league: "serie-a")))
        let bytes = try CBOREncoder().encode(serieA)
        #expect(try requests.request(from: bytes) == serieA)
        #expect(try requests.request(from: bytes) == serieA)
        #expect(requests.decodeCount == 1)
        let others = [
            Request(Call(Methods.Teams.self, TeamsArguments(league: "serie-b"))),
            Request(Call(Methods.Teams.self, TeamsArguments(league: "serie-a")), cache: .offline),
            Request(Call(Methods.Ping.self)),
        ]
        for request in others { #expect(try requests.request(from: CBOREncoder().encode(request)) == request) }
        #expect(requests.decodeCount == 4)
    }

    @Test("A payload that does not decode is refused each time with the same error, and never remembered")
    func undecodableEachTime() throws {
        var requests = DecodedRequests()
        let unknown = try CBOREncoder().encode(["method": "transfers", "cache": "default"])
        for _ in 0..<2 {
            #expect(throws: ErrorBody.self) { try requests.request(from: unknown) }
            do { _ = try requests.request(from: unknown) } catch { #expect(error.code == .unknownMethod) }
        }
        #expect(requests.decodeCount == 4)
    }

    @Test("Past the capacity it starts afresh, and large payloads are decoded every time")
    func bounded() throws {
        var requests = DecodedRequests()
        for index in 0...DecodedRequests.capacity {
            let request = Request(Call(Methods.Players.self, PlayersArguments(team: "team-\(index)")))
            #expect(try requests.request(from: CBOREncoder().encode(request)) == request)
        }
        let large = Request(Call(Methods.Players.self, PlayersArguments(team: String(repeating: "x", count: DecodedRequests.largestRemembered))))
        let bytes = try CBOREncoder().encode(large)
        let before = requests.decodeCount
        #expect(try requests.request(from: bytes) == large)
        #expect(try requests.request(from: bytes) == large)
        #expect(requests.decodeCount == before + 2)
    }
}
