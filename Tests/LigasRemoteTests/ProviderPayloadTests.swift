import Foundation
import LigasDomain
@testable import LigasRemote
import LigasTestSupport
import Testing

/// The `flashlive` and `transfermarkt` contracts over payloads shaped like the providers' own
/// (`RapidAPIPayloads`), mapped into the domain.
@Suite("Provider contracts: FlashLive and Transfermarkt payloads")
struct ProviderPayloadTests {
    typealias P = RapidAPIPayloads
    static let cdn = URL(string: "https://cdn.test/")!
    let flashLive = MappingContext(baseURL: URL(string: "https://flashlive-sports.p.rapidapi.com/")!, dataSource: .flashLive)
    let transfermarkt = MappingContext(baseURL: URL(string: "https://transfermarket.p.rapidapi.com/")!, dataSource: .transfermarkt)

    func payload(_ template: String) -> Data { P.filled(template, cdn: Self.cdn) }

    @Test("FlashLive standings: rank, team, played, won, drawn, lost, goals for and against, points; counts left out follow from the matches played")
    func flashLiveStandings() throws {
        let table = try RemoteContract.flashLive.mapper.standings(from: payload(P.flashLiveStandingsSerieA), in: flashLive)

        #expect(table.count == 4)
        #expect(table[0] == Standing(
            rank: 1,
            team: Team(id: "Fl1Bsc01", name: "Barcelona SC", logoURL: URL(string: "https://cdn.test/res/image/data/bsc-logo.png")!, dataSource: .flashLive),
            played: 3, won: 3, drawn: 0, lost: 0, goalsFor: 8, goalsAgainst: 3, points: 9))
        #expect(table.map(\.rank) == [1, 2, 3, 4])
        #expect(table.map(\.points) == [9, 4, 3, 1])
        #expect(table[1].goalsFor == 4 && table[1].goalsAgainst == 4 && table[1].drawn == 1 && table[1].lost == 1)
    }

    @Test("FlashLive standings with figures no table has (a huge float, a negative count) are invalid data, named, not a trap",
          arguments: [#""POINTS":1e300"#, #""MATCHES_PLAYED":-3"#, #""RANKING":9223372036854775807"#])
    func flashLiveStandingsOutOfRange(field: String) {
        var row = ["\"RANKING\":1", "\"MATCHES_PLAYED\":3", "\"POINTS\":9.0"]
        let name = field.split(separator: ":")[0]
        row.removeAll { $0.hasPrefix(name) }
        row.append(field)
        let body = #"{"DATA":[{"ROWS":[{"TEAM_ID":"t1","TEAM_NAME":"Liga","TEAM_IMAGE_PATH":"https://cdn.test/l.png","GOALS":"8:3","WINS":3,"#
            + row.joined(separator: ",") + "}]}]}"
        #expect(throws: LigasError.invalidData("the table row of Liga has figures out of range")) {
            try RemoteContract.flashLive.mapper.standings(from: Data(body.utf8), in: flashLive)
        }
    }

    @Test("A rate-limit header is believed only as a whole count from 0 to 10^9: negative, huge, fractional or text is ignored",
          arguments: [("42", 42), (" 7 ", 7), ("0", 0), ("-1", nil), ("99999999999999999999", nil), ("2000000000", nil), ("1.5", nil), ("lots", nil), (nil, nil)] as [(String?, Int?)])
    func rateLimitHeaders(header: String?, count: Int?) {
        #expect(MeteredHTTPClient.count(header) == count)
    }

    @Test("FlashLive teams come out of the standings, in table order, each saying it came from flashlive")
    func flashLiveTeams() throws {
        let teams = try RemoteContract.flashLive.mapper.teams(from: payload(P.flashLiveStandingsSerieA), in: flashLive)

        #expect(teams.map(\.id) == P.serieATeams.map(\.id))
        #expect(teams.map(\.name) == P.serieATeams.map(\.name))
        #expect(teams.allSatisfy { $0.dataSource == .flashLive && $0.logoURL.host == "cdn.test" })
    }

    @Test("FlashLive squad: every group's players, positions from PLAYER_TYPE_ID, jersey numbers, photos; no nationality (PLAYER_FLAG_ID is a number, not a country)")
    func flashLiveSquad() throws {
        let squad = try RemoteContract.flashLive.mapper.players(from: payload(P.flashLiveSquad(team: "Fl1Eme02")), in: flashLive)

        #expect(squad.map(\.position) == [.goalkeeper, .defender, .midfielder, .forward, .coach])
        #expect(squad.map(\.number) == [1, 4, 8, nil, nil])
        #expect(squad[0] == Player(
            id: "Fl1Eme02G1", name: "Arquero Fl1Eme02", photoURL: URL(string: "https://cdn.test/res/image/data/Fl1Eme02-g1.png")!,
            number: 1, position: .goalkeeper, nationality: nil, dataSource: .flashLive))
        #expect(squad.last?.photoURL == nil, "the coach has no photo")
        #expect(squad.allSatisfy { $0.nationality == nil && $0.dataSource == .flashLive })
    }

    @Test("FlashLive squad: an unknown PLAYER_TYPE_ID is invalid data, named")
    func flashLiveUnknownPosition() {
        let body = #"{"DATA":[{"ITEMS":[{"PLAYER_ID":"x1","PLAYER_NAME":"X","PLAYER_TYPE_ID":"LIBERO","PLAYER_FLAG_ID":1}]}]}"#
        #expect(throws: LigasError.invalidData("unknown PLAYER_TYPE_ID LIBERO of X")) {
            try RemoteContract.flashLive.mapper.players(from: Data(body.utf8), in: flashLive)
        }
    }

    @Test("FlashLive results: finished matches with winner and scores (text in the payload), postponed ones left out; fixtures: scheduled ones by kick-off, postponed left out")
    func flashLiveMatches() throws {
        let matches = try RemoteContract.flashLive.mapper.matches(
            fromParts: [payload(P.flashLiveResultsSerieA), payload(P.flashLiveFixturesSerieA)], in: flashLive)

        #expect(matches.previous.map(\.match.home) == ["Barcelona SC", "LDU Quito", "Independiente del Valle"])
        #expect(matches.previous.map(\.winner) == ["Barcelona SC", "Draw", "Barcelona SC"])
        #expect(matches.previous.map(\.homeScore) == [3, 1, 0])
        #expect(matches.previous.map(\.awayScore) == [1, 1, 2])
        #expect(matches.previous[0].match == Match(
            date: Date(timeIntervalSince1970: 1_771_700_400), description: "Jornada 1", home: "Barcelona SC", away: "Emelec"))
        #expect(matches.previous[0].highlightsURL == URL(string: "https://www.flashscore.com/match/EvA00001/#/match-summary"))
        #expect(matches.upcoming.map(\.home) == ["Emelec", "LDU Quito"])
        #expect(matches.upcoming.map(\.date) == [Date(timeIntervalSince1970: 1_793_721_600), Date(timeIntervalSince1970: 1_793_800_800)])
    }

    @Test("FlashLive fixtures answered 404: no upcoming matches, the results still there; both 404: no matches at all")
    func flashLiveNoEvents() throws {
        let noFixtures = try RemoteContract.flashLive.mapper.matches(fromParts: [payload(P.flashLiveResultsSerieB), nil], in: flashLive)
        #expect(noFixtures.previous.count == 1 && noFixtures.upcoming.isEmpty)
        #expect(noFixtures.previous[0].homeScore == 2 && noFixtures.previous[0].winner == "Imbabura")

        let nothing = try RemoteContract.flashLive.mapper.matches(fromParts: [nil, nil], in: flashLive)
        #expect(nothing.isEmpty)
    }

    @Test("FlashLive highlights: a match's links (one request per match: the contract has it, ligasd does not spend on it)")
    func flashLiveHighlights() throws {
        let mapper = try #require(RemoteContract.flashLive.mapper as? FlashLiveMapper)

        let links = try mapper.highlights(from: payload(P.flashLiveHighlights))

        #expect(links.map(\.absoluteString) == ["https://www.youtube.com/watch?v=lig4spr0001", "https://www.youtube.com/watch?v=lig4spr0002"])
        #expect(FlashLive.highlightsPath(eventID: "EvA00001") == "v1/events/highlights?event_id=EvA00001")
        #expect(FlashLive.highlightsPath(eventID: "a&b=c") == nil)
    }

    @Test("FlashLive seasons: Ecuador's Serie A and B from the tournaments list; another country's Serie A and the women's league are not them")
    func flashLiveSeasons() throws {
        let seasons = try RemoteContract.flashLive.mapper.seasons(from: payload(P.flashLiveTournaments), in: flashLive)

        #expect(seasons == [
            LeagueSeason(league: "serie-a", seasonID: P.serieASeason.season, stageID: P.serieASeason.stage),
            LeagueSeason(league: "serie-b", seasonID: P.serieBSeason.season, stageID: P.serieBSeason.stage),
        ])
    }

    @Test("Transfermarkt clubs: id, name and crest, each saying it came from transfermarkt")
    func transfermarktClubs() throws {
        let teams = try RemoteContract.transfermarkt.mapper.teams(from: payload(P.transfermarktClubsSerieB), in: transfermarkt)

        #expect(teams.map(\.id) == P.serieBClubsAtTransfermarkt.map(\.id))
        #expect(teams[0] == Team(
            id: "41301", name: "Cumbayá FC", logoURL: URL(string: "https://cdn.test/images/wappen/medium/41301.png?lm=1677580396")!,
            dataSource: .transfermarkt))
    }

    @Test("Transfermarkt squad: positions by group, shirt numbers ('-' is none), the first nationality, photos; no position given: a midfielder")
    func transfermarktSquad() throws {
        let squad = try RemoteContract.transfermarkt.mapper.players(from: payload(P.transfermarktSquad(club: "41301")), in: transfermarkt)

        #expect(squad.map(\.position) == [.midfielder, .goalkeeper, .midfielder])
        #expect(squad.map(\.number) == [8, nil, nil])
        #expect(squad.map(\.nationality) == ["Ecuador", "Argentina", "Ecuador"])
        #expect(squad[0].photoURL == URL(string: "https://cdn.test/portrait/medium/413018.jpg?lm=1"))
        #expect(squad.allSatisfy { $0.dataSource == .transfermarkt })
    }

    @Test("Transfermarkt has no matches or standings: not found, without a request")
    func transfermarktHasNoTables() {
        let catalog = RemoteCatalog(sources: [RemoteSource(dataSource: .transfermarkt, baseURL: Transfermarkt.defaultBaseURL)])
        for feed in [EndpointTable.Feed.matches, .standings] {
            #expect(throws: LigasError.notFound("transfermarkt does not provide \(feed.rawValue)")) {
                try catalog.request(feed, id: "serie-b", from: .transfermarkt)
            }
        }
    }

    @Test("Malformed bodies are invalid data", arguments: ["<html>upstream error</html>", #"{"DATA":[{"ROWS":[{"RANKING":1}]}]}"#])
    func malformed(body: String) {
        var outcome: LigasError?
        do {
            _ = try RemoteContract.flashLive.mapper.standings(from: Data(body.utf8), in: flashLive)
        } catch {
            outcome = error as? LigasError
        }
        guard case .invalidData = outcome else {
            Issue.record("expected invalidData, got \(String(describing: outcome))")
            return
        }
    }
}
