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
}
