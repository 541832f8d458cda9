import Foundation
import LigasDomain
@testable import LigasRemote
import Testing

@Suite("Payload mappers: seed football API and the project's REST contract")
struct PayloadMapperTests {
    let seedContext = MappingContext(baseURL: URL(string: "https://seed.test/")!, dataSource: .seedFootballAPI)
    let restContext = MappingContext(baseURL: URL(string: "https://ligas.test/v1/")!, dataSource: .ligasREST)

    @Test("Maps the seed API's exact teams payload")
    func seedTeams() throws {
        let payload = json(#"{"teams":[{"id":"767ec50c-7fdb-4c3d-98f9-d6727ef8252b","name":"Team Red Dragons","logo":"https://tstzj.s3.amazonaws.com/dragons.png"}]}"#)

        let teams = try RemoteContract.seedFootballAPI.mapper.teams(from: payload, in: seedContext)

        #expect(teams == [Team(
            id: "767ec50c-7fdb-4c3d-98f9-d6727ef8252b", name: "Team Red Dragons",
            logoURL: URL(string: "https://tstzj.s3.amazonaws.com/dragons.png")!, dataSource: .seedFootballAPI)])
    }

    @Test("Maps the seed API's exact matches payload, dates with milliseconds included")
    func seedMatches() throws {
        let payload = json(#"{"matches":{"previous":[{"date":"2022-04-23T18:00:00.000Z","description":"Team Cool Eagles vs. Team Red Dragons","home":"Team Cool Eagles","away":"Team Red Dragons","winner":"Team Red Dragons","highlights":"https://tstzj.s3.amazonaws.com/highlights.mp4"}],"upcoming":[{"date":"2023-08-13T20:00:00.000Z","description":"Team Cool Eagles vs. Team Serious Lions","home":"Team Cool Eagles","away":"Team Serious Lions"}]}}"#)

        let matches = try RemoteContract.seedFootballAPI.mapper.matches(from: payload, in: seedContext)

        #expect(matches == Matches(
            previous: [PreviousMatch(
                match: Match(date: Date(timeIntervalSince1970: 1_650_736_800), description: "Team Cool Eagles vs. Team Red Dragons",
                             home: "Team Cool Eagles", away: "Team Red Dragons"),
                winner: "Team Red Dragons", highlightsURL: URL(string: "https://tstzj.s3.amazonaws.com/highlights.mp4")!)],
            upcoming: [Match(date: Date(timeIntervalSince1970: 1_691_956_800), description: "Team Cool Eagles vs. Team Serious Lions",
                             home: "Team Cool Eagles", away: "Team Serious Lions")]))
    }

    @Test("The seed API provides no players")
    func seedHasNoPlayers() {
        #expect(throws: LigasError.notFound("seed-football-api provides no players")) {
            try RemoteContract.seedFootballAPI.mapper.players(from: json(#"{"players":[]}"#), in: seedContext)
        }
    }

    @Test("REST contract: relative image references resolve against the base URL; absolute ones stay")
    func restRelativeURLs() throws {
        let payload = json(#"{"teams":[{"id":"emelec","name":"Emelec","logo":"images/teams/emelec.png"},{"id":"aucas","name":"Aucas","logo":"https://cdn.test/aucas.png"}]}"#)

        let teams = try RemoteContract.ligasREST.mapper.teams(from: payload, in: restContext)

        #expect(teams.map(\.logoURL.absoluteString) == ["https://ligas.test/v1/images/teams/emelec.png", "https://cdn.test/aucas.png"])
        #expect(teams.allSatisfy { $0.dataSource == .ligasREST })
    }

    @Test("REST contract: maps players with optional photo, number and nationality")
    func restPlayers() throws {
        let payload = json(#"{"players":[{"id":"emelec-01","name":"Ana","photo":null,"number":1,"position":"goalkeeper","nationality":"Ecuador"},{"id":"emelec-23","name":"Beto","photo":"images/players/emelec-23.png","number":null,"position":"coach","nationality":null}]}"#)

        let players = try RemoteContract.ligasREST.mapper.players(from: payload, in: restContext)

        #expect(players == [
            Player(id: "emelec-01", name: "Ana", photoURL: nil, number: 1, position: .goalkeeper, nationality: "Ecuador", dataSource: .ligasREST),
            Player(id: "emelec-23", name: "Beto", photoURL: URL(string: "https://ligas.test/v1/images/players/emelec-23.png")!,
                   number: nil, position: .coach, nationality: nil, dataSource: .ligasREST),
        ])
    }

    @Test("REST contract: previous matches carry their scores when given, and none when not")
    func restScores() throws {
        let payload = json(#"{"matches":{"previous":[{"date":"2025-02-15T19:00:00.000Z","description":"Emelec vs. Aucas","home":"Emelec","away":"Aucas","winner":"Emelec","homeScore":2,"awayScore":1,"highlights":"h/1.mp4"},{"date":"2025-02-22T19:00:00Z","description":"Aucas vs. Emelec","home":"Aucas","away":"Emelec","winner":"Draw","highlights":"h/2.mp4"}],"upcoming":[]}}"#)

        let previous = try RemoteContract.ligasREST.mapper.matches(from: payload, in: restContext).previous

        #expect(previous.map(\.homeScore) == [2, nil])
        #expect(previous.map(\.awayScore) == [1, nil])
    }

    @Test("REST contract: maps a league table, team logos resolved against the base URL")
    func restStandings() throws {
        let payload = json(#"{"standings":[{"rank":1,"team":{"id":"emelec","name":"Emelec","logo":"images/teams/emelec.png"},"played":4,"won":3,"drawn":1,"lost":0,"goalsFor":9,"goalsAgainst":3,"points":10}]}"#)

        let standings = try RemoteContract.ligasREST.mapper.standings(from: payload, in: restContext)

        #expect(standings == [Standing(
            rank: 1,
            team: Team(id: "emelec", name: "Emelec", logoURL: URL(string: "https://ligas.test/v1/images/teams/emelec.png")!, dataSource: .ligasREST),
            played: 4, won: 3, drawn: 1, lost: 0, goalsFor: 9, goalsAgainst: 3, points: 10)])
    }

    @Test("Invalid data: a missing field is named with its path")
    func missingField() {
        #expect(throws: LigasError.invalidData("missing field teams[1].logo")) {
            try RemoteContract.ligasREST.mapper.teams(
                from: json(#"{"teams":[{"id":"a","name":"A","logo":"a.png"},{"id":"b","name":"B"}]}"#), in: restContext)
        }
    }

    @Test("Invalid data: a wrong type is named with its path")
    func wrongType() {
        #expect(throws: LigasError.invalidData("wrong type at players[0].number: expected Int")) {
            try RemoteContract.ligasREST.mapper.players(
                from: json(#"{"players":[{"id":"a","name":"A","number":"ten","position":"forward"}]}"#), in: restContext)
        }
    }

    @Test("Invalid data: an unknown position, a bad date, malformed JSON", arguments: [
        #"{"players":[{"id":"a","name":"A","position":"striker"}]}"#,
        #"{"matches":{"previous":[],"upcoming":[{"date":"yesterday","description":"x","home":"a","away":"b"}]}}"#,
        #"{"teams":[{"#,
    ])
    func invalidPayloads(payload: String) {
        #expect(throws: LigasError.self) {
            let mapper = RemoteContract.ligasREST.mapper
            _ = try mapper.players(from: json(payload), in: restContext)
            _ = try mapper.matches(from: json(payload), in: restContext)
        }
    }

    @Test("Invalid data: a value outside the contract's list is named with its path and the value, in plain words")
    func unknownValue() {
        #expect(throws: LigasError.invalidData("bad value at players[0].position: unknown value 'striker'")) {
            try RemoteContract.ligasREST.mapper.players(
                from: json(#"{"players":[{"id":"a","name":"A","position":"striker"}]}"#), in: restContext)
        }
    }

    @Test("Invalid data: an empty image reference is not a URL")
    func emptyLogo() {
        #expect(throws: LigasError.invalidData("logo is not a URL: ")) {
            try RemoteContract.ligasREST.mapper.teams(from: json(#"{"teams":[{"id":"a","name":"A","logo":""}]}"#), in: restContext)
        }
    }
}
