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
        readTimeout: TimeAmount = .seconds(10), requestTimeout: TimeAmount = .seconds(60), maxBodyBytes: Int = 4096,
        _ reply: @escaping @Sendable (String) -> LoopbackHTTPServer.Reply,
        _ body: (RemoteFeedLoader<String, [Team]>, LoopbackHTTPServer) async throws -> Void
    ) async throws {
        let server = try await LoopbackHTTPServer.start(reply)
        var limits = AsyncHTTPClientAdapter.Limits()
        limits.readTimeout = readTimeout
        limits.requestTimeout = requestTimeout
        let client = AsyncHTTPClientAdapter(limits: limits)
        let catalog = RemoteCatalog(sources: [RemoteSource(dataSource: .ligasREST, baseURL: server.baseURL)])
        let loader = RemoteFeedLoader<String, [Team]>(
            client: client, maxBodyBytes: maxBodyBytes,
            request: { try catalog.request(.teams, id: $0, from: .ligasREST) },
            map: { parts, request in
                guard let data = parts.first ?? nil else { throw LigasError.invalidData("no body") }
                return try request.contract.mapper.teams(from: data, in: request.context)
            })
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

    @Test("HTTP 500: invalid data, naming the remote with its port, the status and the path")
    func serverError() async throws {
        try await withRemote({ _ in .status(500) }) { loader, server in
            await #expect(throws: LigasError.invalidData("127.0.0.1:\(server.port) answered HTTP 500 for /leagues/serie-a/teams.json")) {
                try await loader.load("serie-a")
            }
        }
    }

    @Test("Invalid JSON: invalid data, naming the remote with its port and the path")
    func invalidJSON() async throws {
        try await withRemote({ _ in .ok(json("{\"teams\": [oops"), contentType: "application/json") }) { loader, server in
            await #expect(throws: LigasError.invalidData("malformed JSON in 127.0.0.1:\(server.port)'s answer for /leagues/serie-a/teams.json")) {
                try await loader.load("serie-a")
            }
        }
    }

    @Test("A response slower than the read timeout: connectivity, 'no answer from HOST:PORT within N s'")
    func slowerThanTimeout() async throws {
        try await withRemote(readTimeout: .milliseconds(200), { _ in .stall }) { loader, server in
            let why = try await Self.connectivityMessage { try await loader.load("serie-a") }
            #expect(why == "no answer from 127.0.0.1:\(server.port) within 0.2 s")
        }
    }

    @Test(
        "A body trickled a byte at a time, no read ever waiting long: connectivity once the whole request passes its limit, 'HOST:PORT did not complete the response within N s'",
        .timeLimit(.minutes(1)))
    func trickledPastTheRequestLimit() async throws {
        // A byte every 0.1 s, ten times within the read timeout; the last second of the request is
        // read against its deadline, the two before are not.
        try await withRemote(readTimeout: .seconds(1), requestTimeout: .seconds(3), { _ in
            .trickle(first: json("{"), chunk: json(" "), every: .milliseconds(100), contentType: "application/json")
        }) { loader, server in
            let why = try await Self.connectivityMessage { try await loader.load("serie-a") }
            #expect(why == "127.0.0.1:\(server.port) did not complete the response within 3 s")
        }
    }

    @Test("A consumer that takes its time between chunks (a client reading an image slowly) is not charged to the remote: the body arrives whole past the request's limit")
    func slowConsumerIsNotTheRemote() async throws {
        // The limit is real time, and so is the waiting it counts: on a loaded machine (the start
        // of a whole-suite run, every test at once), the head and the first pieces of even a small
        // body took more than 1 s, and a MiB's pieces after the pauses more than 2 s (one
        // fresh-clone run in three, then one in ten). So the body is small enough for
        // AsyncHTTPClient to read most of it while the consumer pauses, and the limit is 5 s, for
        // 6 s of the consumer's own time.
        let size = 128 << 10
        let server = try await LoopbackHTTPServer.start { _ in .ok(Data(repeating: 0x42, count: size), contentType: "image/png") }
        var limits = AsyncHTTPClientAdapter.Limits()
        limits.requestTimeout = .seconds(5)
        let client = AsyncHTTPClientAdapter(limits: limits)
        let pauses = 4
        let outcome = await asyncResult { () async throws -> (bytes: Int, pieces: Int) in
            let (_, body) = try await client.get(server.baseURL.appendingPathComponent("big.png"), headers: [:], maxBodyBytes: 2 << 20)
            var received = (bytes: 0, pieces: 0)
            for try await piece in body {
                received.bytes += piece.count
                received.pieces += 1
                // The consumer's own time: 6 s, past the limit, after each of the first pieces.
                if received.pieces <= pauses { try await Task.sleep(for: .milliseconds(1500)) }
            }
            return received
        }
        try await client.shutdown()
        try await server.shutdown()
        let received = try outcome.get()
        #expect(received.bytes == size)
        #expect(received.pieces > pauses, "the body came in \(received.pieces) pieces: too few to outlast the limit")
    }

    @Test("Connection refused: connectivity, 'cannot reach HOST:PORT: connection refused'")
    func connectionRefused() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .status(200) }
        let closedPort = server.baseURL
        try await server.shutdown()
        let client = AsyncHTTPClientAdapter()
        let catalog = RemoteCatalog(sources: [RemoteSource(dataSource: .ligasREST, baseURL: closedPort)])
        let loader = RemoteFeedLoader.teams(client: client, catalog: catalog, dataSourceOfLeague: { _ in .ligasREST })

        let outcome = await asyncResult { try await Self.connectivityMessage { try await loader.load("serie-a") } }
        try await client.shutdown()
        #expect(try outcome.get() == "cannot reach 127.0.0.1:\(server.port): connection refused")
    }

    @Test("A body cut off before its announced length: connectivity, 'HOST:PORT closed the connection …'")
    func truncatedBody() async throws {
        try await withRemote({ _ in .truncated(Self.teamsJSON.prefix(20), declaredLength: Self.teamsJSON.count) }) { loader, server in
            let why = try await Self.connectivityMessage { try await loader.load("serie-a") }
            #expect(why == "127.0.0.1:\(server.port) closed the connection before the response was complete")
        }
    }

    @Test("A kept-alive connection the remote closes just as the next request goes out on it: that request is sent once more, on a new connection, and succeeds")
    func staleKeptAliveConnection() async throws {
        let server = try await LoopbackHTTPServer.startRoutingRequests { request in
            request.numberOnConnection > 1 ? .hangUp : .ok(Self.teamsJSON, contentType: "application/json")
        }
        let client = AsyncHTTPClientAdapter()
        let outcome = await asyncResult {
            for _ in 0..<3 { _ = try await client.getData(server.baseURL, headers: [:], maxBodyBytes: 4096) }
        }
        try await client.shutdown()
        try await server.shutdown()
        try outcome.get()
        // 1 on a new connection; 2 on it again (hung up), then on a new one; the same for 3.
        #expect(server.requests.map(\.numberOnConnection) == [1, 2, 1, 2, 1])
    }

    @Test("A remote that closes every connection without answering: connectivity after one more try")
    func closesWithoutAnswering() async throws {
        try await withRemote({ _ in .hangUp }) { loader, server in
            let why = try await Self.connectivityMessage { try await loader.load("serie-a") }
            #expect(why == "127.0.0.1:\(server.port) closed the connection before the response was complete")
            #expect(server.requests.count == 2)
        }
    }

    @Test("Redirects without end: connectivity, 'too many redirects (more than 3) from URL', the URL with its port")
    func redirectLimit() async throws {
        try await withRemote({ path in
            // /leagues/serie-a/teams.json -> /hop/1 -> /hop/2 -> …
            let hop = path.hasPrefix("/hop/") ? Int(path.dropFirst(5)) ?? 0 : 0
            return .redirect(to: "/hop/\(hop + 1)")
        }) { loader, server in
            let why = try await Self.connectivityMessage { try await loader.load("serie-a") }
            #expect(why == "too many redirects (more than 3) from http://127.0.0.1:\(server.port)/leagues/serie-a/teams.json")
            #expect(server.requestCount == 4, "the first request and 3 redirects followed")
        }
    }

    @Test("A redirect loop: connectivity, 'redirect loop from URL'")
    func redirectLoop() async throws {
        try await withRemote({ path in
            path == "/elsewhere" ? .redirect(to: "/leagues/serie-a/teams.json") : .redirect(to: "/elsewhere")
        }) { loader, server in
            let why = try await Self.connectivityMessage { try await loader.load("serie-a") }
            #expect(why == "redirect loop from http://127.0.0.1:\(server.port)/leagues/serie-a/teams.json")
        }
    }

    @Test("https:// to a server that speaks plain HTTP: connectivity, 'TLS handshake with HOST:PORT failed'")
    func tlsFailure() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .ok(Self.teamsJSON, contentType: "application/json") }
        let client = AsyncHTTPClientAdapter()
        let base = try #require(URL(string: "https://127.0.0.1:\(server.port)/"))
        let catalog = RemoteCatalog(sources: [RemoteSource(dataSource: .ligasREST, baseURL: base)])
        let loader = RemoteFeedLoader.teams(client: client, catalog: catalog, dataSourceOfLeague: { _ in .ligasREST })

        let outcome = await asyncResult { try await Self.connectivityMessage { try await loader.load("serie-a") } }
        try await client.shutdown()
        try await server.shutdown()
        #expect(try outcome.get() == "TLS handshake with 127.0.0.1:\(server.port) failed")
    }

    /// The message of the `LigasError.connectivity` that `body` throws; checks that it leaks no
    /// library names (`HTTPClientError`, `NIOSSL…`, `IOError`) or errno numbers.
    static func connectivityMessage(_ body: () async throws -> some Any) async throws -> String {
        do {
            _ = try await body()
        } catch LigasError.connectivity(let why) {
            for leak in ["HTTPClientError", "NIOSSL", "IOError", "errno", "NIOConnectionError", "ChannelError"] {
                #expect(!why.contains(leak), "\(why)")
            }
            return why
        }
        throw NoError()
    }

    struct NoError: Error, CustomStringConvertible {
        var description: String { "expected a connectivity error, but the load succeeded" }
    }

    @Test("A body over the size cap, announced or streamed without end: invalid data, without reading it all")
    func oversizedBodies() async throws {
        try await withRemote(maxBodyBytes: 100, { path in
            path.contains("serie-a") ? .ok(Data(repeating: 0x20, count: 5000), contentType: "application/json")
                : .endless(chunk: Data(repeating: 0x20, count: 1024), contentType: "application/json")
        }) { loader, server in
            await #expect(throws: LigasError.invalidData("127.0.0.1:\(server.port) sent more than 100 bytes for /leagues/serie-a/teams.json")) {
                try await loader.load("serie-a")
            }
            await #expect(throws: LigasError.invalidData("127.0.0.1:\(server.port) sent more than 100 bytes for /leagues/serie-b/teams.json")) {
                try await loader.load("serie-b")
            }
        }
    }
}
