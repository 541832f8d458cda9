import Foundation
import LigasProtocol
import LigasServer
import Testing

@Suite("Request log: arguments")
struct ArgumentsTextTests {
    @Test("a call's arguments read as name=value pairs for the request log, absent optionals left out")
    func argumentsText() throws {
        #expect(ArgumentsText.of(Call(Methods.Ping.self)) == "")
        #expect(ArgumentsText.of(Call(Methods.Matches.self, MatchesArguments(league: "serie-a"))) == "league=serie-a")
        #expect(ArgumentsText.of(Call(Methods.Matches.self, MatchesArguments(league: "serie-a", team: "emelec")))
            == "league=serie-a team=emelec")
        let url = try #require(URL(string: "https://x.ec/a.png"))
        #expect(ArgumentsText.of(Call(Methods.Image.self, .url(url))) == "url=https://x.ec/a.png")
        #expect(ArgumentsText.of(Call(Methods.Image.self, .team("emelec"))) == "team=emelec")
    }

    @Test("a client's long text is cut in the log to 256 characters, saying how long it was: a 1 MiB id is not a 1 MiB log entry")
    func longTextCut() {
        let id = String(repeating: "x", count: 1 << 20)
        #expect(ArgumentsText.of(Call(Methods.Teams.self, TeamsArguments(league: id)))
            == "league=\(String(repeating: "x", count: 256))… (1048576 bytes)")
        let failure = RequestLogEntry.Failure(code: .notFound, message: "no league '\(id)'")
        #expect(failure.message?.hasSuffix("… (1048588 bytes)") == true && failure.message!.count < 300)
        let marks = "a" + String(repeating: "\u{301}", count: 100_000)  // one character, 200,001 bytes
        #expect(ArgumentsText.of(Call(Methods.Teams.self, TeamsArguments(league: marks))).hasSuffix("… (200001 bytes)"))
        let short = "ñandú"
        #expect(ArgumentsText.of(Call(Methods.Teams.self, TeamsArguments(league: short))) == "league=ñandú")
    }
}
