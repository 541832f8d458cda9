import Foundation
import LigasDomain
import LigasRemote
import LigasTestSupport
import Synchronization
import Testing

/// The daemon's HTTP client, made on the first request that needs it.
@Suite("Lazy HTTP client")
struct LazyHTTPClientTests {
    @Test("Serving file:// URLs never makes the HTTP client; the first http:// request makes it, once")
    func madeOnFirstHTTPRequest() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .ok(Data("{}".utf8), contentType: "application/json") }
        let made = MakeCount()
        let http = LazyHTTPClient {
            made.value.add(1, ordering: .relaxed)
            return AsyncHTTPClientAdapter()
        }
        let client = SchemeRoutingHTTPClient(http: http)
        let sample = URL(fileURLWithPath: #filePath)

        let outcome = await asyncResult {
            _ = try await client.getData(sample, headers: [:], maxBodyBytes: 1 << 20)
            let madeBeforeHTTP = made.value.load(ordering: .relaxed)
            let first = try await client.getData(server.baseURL.appendingPathComponent("a.json"), headers: [:], maxBodyBytes: 1 << 20)
            let second = try await client.getData(server.baseURL.appendingPathComponent("b.json"), headers: [:], maxBodyBytes: 1 << 20)
            return (madeBeforeHTTP, first.0.status, second.0.status)
        }
        try await http.shutdown()
        try await server.shutdown()

        let (madeBeforeHTTP, firstStatus, secondStatus) = try outcome.get()
        #expect(madeBeforeHTTP == 0)
        #expect(firstStatus == 200)
        #expect(secondStatus == 200)
        #expect(made.value.load(ordering: .relaxed) == 1)
    }

    @Test("Shutting down a client never made makes none, and a request after the shutdown is a connectivity error")
    func shutdownWithoutRequests() async throws {
        let made = MakeCount()
        let http = LazyHTTPClient {
            made.value.add(1, ordering: .relaxed)
            return AsyncHTTPClientAdapter()
        }

        try await http.shutdown()

        #expect(made.value.load(ordering: .relaxed) == 0)
        await #expect(throws: LigasError.connectivity("the HTTP client is shut down: ligasd is stopping")) {
            _ = try await http.get(URL(string: "http://127.0.0.1:9/x")!, headers: [:], maxBodyBytes: 1)
        }
        #expect(made.value.load(ordering: .relaxed) == 0)
    }
}

/// How many clients a `LazyHTTPClient` made.
final class MakeCount: Sendable {
    let value = Atomic(0)
}
