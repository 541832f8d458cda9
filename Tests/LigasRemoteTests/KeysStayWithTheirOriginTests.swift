import AsyncHTTPClient
import Foundation
import LigasDomain
import LigasTestSupport
import Testing

@testable import LigasRemote

/// A remote that redirects must not be able to hand a provider's key to someone else: keys travel
/// in headers AsyncHTTPClient would keep at another origin (`x-rapidapi-key`, `X-API-Key`).
@Suite("API keys stay with the origin they were given for")
struct KeysStayWithTheirOriginTests {
    static let keyed = [
        "x-rapidapi-key": "the-key", "x-rapidapi-host": "provider.example", "X-API-Key": "the-key",
        "Authorization": "Bearer the-key", "Accept": "application/json",
    ]

    @Test("A redirect to another host gets only Accept: no key in any header")
    func otherHost() async throws {
        let elsewhere = try await LoopbackHTTPServer.startRoutingRequests { _ in .ok(Data("{}".utf8), contentType: "application/json") }
        let remote = try await LoopbackHTTPServer.start { _ in .redirect(to: "http://127.0.0.1:\(elsewhere.port)/landing") }
        let client = AsyncHTTPClientAdapter()
        let outcome = await asyncResult { try await client.getData(remote.baseURL.appendingPathComponent("feed"), headers: Self.keyed, maxBodyBytes: 1024) }
        try await client.shutdown()
        try await remote.shutdown()
        try await elsewhere.shutdown()

        #expect(try outcome.get().0.status == 200)
        let landed = try #require(elsewhere.requests.first)
        #expect(landed.path == "/landing")
        #expect(landed.headers["accept"] == "application/json")
        for name in ["x-rapidapi-key", "x-rapidapi-host", "x-api-key", "authorization"] {
            #expect(landed.headers[name] == nil, "\(name) reached the other origin")
        }
        #expect(!landed.headers.values.contains { $0.contains("the-key") })
    }

    @Test("A redirect within the same origin keeps the key")
    func sameOrigin() async throws {
        let remote = try await LoopbackHTTPServer.startRoutingRequests { request in
            request.path == "/moved" ? .ok(Data("{}".utf8), contentType: "application/json") : .redirect(to: "/moved")
        }
        let client = AsyncHTTPClientAdapter()
        let outcome = await asyncResult { try await client.getData(remote.baseURL.appendingPathComponent("feed"), headers: Self.keyed, maxBodyBytes: 1024) }
        try await client.shutdown()
        try await remote.shutdown()

        #expect(try outcome.get().0.status == 200)
        let moved = try #require(remote.requests.last)
        #expect(moved.path == "/moved")
        #expect(moved.headers["x-rapidapi-key"] == "the-key")
        #expect(moved.headers["x-api-key"] == "the-key")
    }

    @Test(
        "Another origin is another scheme, host or port; the scheme's default port is the same origin",
        arguments: [
            ("https://api.example/a", "http://api.example/b", false),
            ("https://api.example/a", "https://cdn.example/b", false),
            ("https://api.example/a", "https://api.example:8443/b", false),
            ("https://api.example/a", "https://API.example:443/b", true),
            ("http://api.example:80/a", "http://api.example/b?page=2", true),
        ])
    func origins(from: String, to: String, same: Bool) throws {
        let step = try #require(RedirectStep.next(after: URL(string: from)!, headers: Self.keyed, status: 302, location: to))
        #expect(step.url.absoluteString == to)
        #expect(step.headers == (same ? Self.keyed : ["Accept": "application/json"]))
    }

    @Test("A relative Location is resolved against the URL asked for")
    func relativeLocation() throws {
        let step = RedirectStep.next(after: URL(string: "https://api.example/v1/teams?x=1")!, headers: [:], status: 308, location: "../v2/teams")
        #expect(step?.url.absoluteString == "https://api.example/v2/teams")
    }

    @Test(
        "Not followed: a status that is no redirect, no Location, or a Location that is not http(s)",
        arguments: [
            (302, "file:///etc/passwd"), (301, "unix:///run/x.sock"), (307, "ftp://api.example/x"),
            (304, "/elsewhere"), (305, "/elsewhere"), (200, "/elsewhere"), (302, ""), (302, nil),
        ] as [(Int, String?)])
    func notFollowed(status: Int, location: String?) {
        #expect(RedirectStep.next(after: URL(string: "http://api.example/a")!, headers: Self.keyed, status: status, location: location) == nil)
    }

    @Test("A key HTTP cannot carry (a line break inside it) fails the request without the key in its message")
    func unsendableKey() async throws {
        let remote = try await LoopbackHTTPServer.start { _ in .ok(Data("{}".utf8), contentType: "application/json") }
        let client = AsyncHTTPClientAdapter()
        let outcome = await asyncResult {
            try await client.getData(remote.baseURL, headers: ["X-API-Key": "the-key\nsecond line"], maxBodyBytes: 1024)
        }
        try await client.shutdown()
        try await remote.shutdown()
        guard case .failure(let error) = outcome, case LigasError.connectivity(let why) = error else {
            Issue.record("expected connectivity, got \(outcome)")
            return
        }
        #expect(why == "request to 127.0.0.1:\(remote.port) failed: invalid header field values", "\(why)")
        #expect(!why.contains("the-key"))
    }
}
