import Foundation
import LigasDomain
@testable import LigasRemote
import Testing

@Suite("Load feed from remote")
struct LoadFeedFromRemoteUseCaseTests {
    let client = HTTPClientSpy()
    let base = URL(string: "https://ligas.test/v1")!

    func teamsLoader(apiKey: String? = nil, dataSource: DataSource = .ligasREST) -> RemoteFeedLoader<String, [Team]> {
        let catalog = RemoteCatalog(sources: [
            RemoteSource(dataSource: .ligasREST, baseURL: base, apiKey: apiKey.flatMap(APIKey.init)),
            RemoteSource(dataSource: .seedFootballAPI, baseURL: URL(string: "https://seed.test/api")!, apiKey: apiKey.flatMap(APIKey.init)),
        ])
        return .teams(client: client, catalog: catalog, dataSourceOfLeague: { _ in dataSource })
    }

    @Test("Requests the league's teams from the REST contract's endpoint")
    func requestsRESTEndpoint() async throws {
        client.complete(status: 200, body: json(#"{"teams":[]}"#))

        _ = try await teamsLoader().load("serie-a")

        #expect(client.requestedURLs == [URL(string: "https://ligas.test/v1/leagues/serie-a/teams.json")!])
    }

    @Test("Requests the seed API's teams endpoint for a league served by the seed API")
    func requestsSeedEndpoint() async throws {
        client.complete(status: 200, body: json(#"{"teams":[]}"#))

        _ = try await teamsLoader(dataSource: .seedFootballAPI).load("any")

        #expect(client.requestedURLs == [URL(string: "https://seed.test/api/teams")!])
    }

    @Test("Sends the configured API key as the contract's header, and never in the URL")
    func sendsAPIKey() async throws {
        client.complete(status: 200, body: json(#"{"teams":[]}"#))

        _ = try await teamsLoader(apiKey: "s3cret").load("serie-a")
        _ = try await teamsLoader(apiKey: "s3cret", dataSource: .seedFootballAPI).load("serie-a")

        #expect(client.requestedHeaders.map { $0["Authorization"] } == ["Bearer s3cret", nil])
        #expect(client.requestedHeaders.map { $0["X-API-Key"] } == [nil, "s3cret"])
        #expect(client.requestedURLs.allSatisfy { !$0.absoluteString.contains("s3cret") })
    }

    @Test("Delivers mapped teams, marked as coming from the remote, on 200 with valid JSON")
    func deliversTeams() async throws {
        client.complete(status: 200, body: json(#"{"teams":[{"id":"emelec","name":"Emelec","logo":"images/teams/emelec.png"}]}"#))

        let loaded = try await teamsLoader().load("serie-a")

        #expect(loaded.origin == .remote)
        #expect(loaded.value.map(\.id) == ["emelec"])
    }

    @Test("Delivers not-found on HTTP 404")
    func notFound() async {
        client.complete(status: 404)
        await #expect(throws: LigasError.notFound("ligas.test:443 answered HTTP 404 for /v1/leagues/serie-z/teams.json")) { try await teamsLoader().load("serie-z") }
    }

    @Test("Delivers invalid data on any other non-200 status", arguments: [199, 201, 301, 400, 500, 503])
    func nonOKStatus(status: Int) async {
        client.complete(status: status, body: json(#"{"teams":[]}"#))
        await #expect(throws: LigasError.invalidData("ligas.test:443 answered HTTP \(status) for /v1/leagues/serie-a/teams.json")) { try await teamsLoader().load("serie-a") }
    }

    @Test("Delivers invalid data on 200 with invalid JSON, saying where it came from")
    func invalidJSON() async {
        client.complete(status: 200, body: json("<html>"))
        await #expect(throws: LigasError.invalidData("malformed JSON in ligas.test:443's answer for /v1/leagues/serie-a/teams.json")) {
            try await teamsLoader().load("serie-a")
        }
    }

    @Test("A feed of two parts, one absent (404 read as 'no events') and one broken: the error names only the part that came")
    func brokenPartNamed() async {
        struct ByPath: HTTPClient {
            func get(_ url: URL, headers: [String: String], maxBodyBytes: Int) async throws -> (HTTPResponseHead, HTTPBody) {
                let (status, body) = url.path == "/results" ? (200, json("<html>")) : (404, Data())
                return (HTTPResponseHead(status: status, contentType: "application/json", contentLength: body.count), DataChunks(data: body, chunkSize: 1024))
            }
        }
        let base = URL(string: "https://flashlive.test/")!
        let loader = RemoteFeedLoader<String, Matches>(
            client: ByPath(),
            request: { _ in
                RemoteRequest(
                    urls: [base.appendingPathComponent("results"), base.appendingPathComponent("fixtures")], headers: [:],
                    emptyStatuses: [404], contract: .flashLive, context: MappingContext(baseURL: base, dataSource: .flashLive))
            },
            map: { parts, request in try request.contract.mapper.matches(fromParts: parts, in: request.context) })

        await #expect(throws: LigasError.invalidData("malformed JSON in flashlive.test:443's answer for /results")) {
            try await loader.load("serie-a")
        }
    }

    @Test("Delivers the client's connectivity error")
    func connectivity() async {
        client.fail(with: LigasError.connectivity("refused"))
        await #expect(throws: LigasError.connectivity("refused")) { try await teamsLoader().load("serie-a") }
    }

    @Test("Never builds a URL from an id that could leave the base URL", arguments: ["../etc", "a/b", "..", "", "a%2Fb", "a b"])
    func unsafeIDs(id: String) async {
        await #expect(throws: LigasError.notFound("invalid id '\(id)'")) { try await teamsLoader().load(id) }
        #expect(client.requestedURLs.isEmpty)
    }

    @Test("Delivers not-found for players of a data source that has none, without a request")
    func seedPlayers() async {
        let catalog = RemoteCatalog(sources: [RemoteSource(dataSource: .seedFootballAPI, baseURL: base)])
        let loader = RemoteFeedLoader.players(client: client, catalog: catalog, dataSourceOfTeam: { _ in .seedFootballAPI })

        await #expect(throws: LigasError.notFound("seed-football-api does not provide players")) { try await loader.load("x") }
        #expect(client.requestedURLs.isEmpty)
    }

    @Test("An API key never prints")
    func apiKeyRedacted() throws {
        let key = try #require(APIKey("s3cret"))
        let source = RemoteSource(dataSource: .ligasREST, baseURL: base, apiKey: key)
        #expect("\(key)" == "<redacted>")
        #expect(!String(describing: source).contains("s3cret"))
        #expect(!String(reflecting: source).contains("s3cret"))
    }
}
