import Foundation
import LigasDomain
import LigasRemote
import LigasTestSupport
import NIOCore
import Testing

/// The remote loaders with AsyncHTTPClient against a real HTTP server on 127.0.0.1.
@Suite("Remote end to end over loopback HTTP")
struct RemoteOverLoopbackHTTPTests {
    static let teamsJSON = json(#"{"teams":[{"id":"emelec","name":"Emelec","logo":"images/teams/emelec.png"}]}"#)

    func withRemote(
        readTimeout: TimeAmount = .seconds(10), maxBodyBytes: Int = 4096,
        _ reply: @escaping @Sendable (String) -> LoopbackHTTPServer.Reply,
        _ body: (RemoteFeedLoader<String, [Team]>, LoopbackHTTPServer) async throws -> Void
    ) async throws {
        let server = try await LoopbackHTTPServer.start(reply)
        var limits = AsyncHTTPClientAdapter.Limits()
        limits.readTimeout = readTimeout
        let client = AsyncHTTPClientAdapter(limits: limits)
        let catalog = RemoteCatalog(sources: [RemoteSource(dataSource: .ligasREST, baseURL: server.baseURL)])
        let loader = RemoteFeedLoader<String, [Team]>(
            client: client, maxBodyBytes: maxBodyBytes,
            request: { try catalog.request(.teams, id: $0, from: .ligasREST) },
            map: { data, request in try request.contract.mapper.teams(from: data, in: request.context) })
        let outcome = await asyncResult { try await body(loader, server) }
        try await client.shutdown()
        try await server.shutdown()
        try outcome.get()
    }

    @Test("Delivers teams from a real HTTP server, logos resolved against it")
    func success() async throws {
        try await withRemote({ _ in .ok(Self.teamsJSON, contentType: "application/json") }) { loader, server in
            let teams = try await loader.load("serie-a").value
            #expect(teams.map(\.logoURL) == [server.baseURL.appendingPathComponent("images/teams/emelec.png")])
            #expect(server.requests.map(\.path) == ["/leagues/serie-a/teams.json"])
        }
    }

    @Test("HTTP 500: invalid data")
    func serverError() async throws {
        try await withRemote({ _ in .status(500) }) { loader, _ in
            await #expect(throws: LigasError.invalidData("remote answered HTTP 500")) { try await loader.load("serie-a") }
        }
    }

    @Test("Invalid JSON: invalid data")
    func invalidJSON() async throws {
        try await withRemote({ _ in .ok(json("{\"teams\": [oops"), contentType: "application/json") }) { loader, _ in
            await #expect(throws: LigasError.invalidData("malformed JSON")) { try await loader.load("serie-a") }
        }
    }

    @Test("A response slower than the read timeout: connectivity")
    func slowerThanTimeout() async throws {
        try await withRemote(readTimeout: .milliseconds(200), { _ in .stall }) { loader, _ in
            await #expect { try await loader.load("serie-a") } throws: { error in
                guard case LigasError.connectivity(let why) = error else { return false }
                return why.contains("127.0.0.1")
            }
        }
    }

    @Test("Connection refused: connectivity")
    func connectionRefused() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .status(200) }
        let closedPort = server.baseURL
        try await server.shutdown()
        let client = AsyncHTTPClientAdapter()
        let catalog = RemoteCatalog(sources: [RemoteSource(dataSource: .ligasREST, baseURL: closedPort)])
        let loader = RemoteFeedLoader.teams(client: client, catalog: catalog, dataSourceOfLeague: { _ in .ligasREST })

        await #expect { try await loader.load("serie-a") } throws: { error in
            if case LigasError.connectivity = error { return true } else { return false }
        }
        try await client.shutdown()
    }

    @Test("A body cut off before its announced length: connectivity")
    func truncatedBody() async throws {
        try await withRemote({ _ in .truncated(Self.teamsJSON.prefix(20), declaredLength: Self.teamsJSON.count) }) { loader, _ in
            await #expect { try await loader.load("serie-a") } throws: { error in
                if case LigasError.connectivity = error { return true } else { return false }
            }
        }
    }

    @Test("A body over the size cap, announced or streamed without end: invalid data, without reading it all")
    func oversizedBodies() async throws {
        try await withRemote(maxBodyBytes: 100, { path in
            path.contains("serie-a") ? .ok(Data(repeating: 0x20, count: 5000), contentType: "application/json")
                : .endless(chunk: Data(repeating: 0x20, count: 1024), contentType: "application/json")
        }) { loader, server in
            await #expect(throws: LigasError.invalidData("response body larger than 100 bytes")) { try await loader.load("serie-a") }
            await #expect(throws: LigasError.invalidData("response body larger than 100 bytes")) { try await loader.load("serie-b") }
        }
    }
}
