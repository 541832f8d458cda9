import Foundation
import LigasClient
import LigasProtocol
import LigasSampleDataLocation
import LigasTestSupport
import Testing

/// Every method's use-case scenarios through the real ligasd binary and its socket: online or
/// offline (the loopback remote shut down), crossed with an empty, fresh or expired cache
/// (expired: the daemon restarted with a max cache age of 0, so start-up validation drops it).
@Suite("ligasd: online/offline x cache state, per method")
struct ScenarioMatrixTests {
    enum Method: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case teams, players, matches, image
        var testDescription: String { rawValue }
    }

    enum CacheState: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case empty, fresh, expired
        var testDescription: String { "cache \(rawValue)" }
    }

    /// What a client sees: where the answer came from, or the error code.
    enum Outcome: Equatable { case answered(ResultSource), failed(ErrorCode) }

    static func ask(_ method: Method, _ client: LigasClient, remote: URL) async -> Outcome {
        do {
            switch method {
            case .teams: return .answered(try await client.teams(league: "serie-a").source)
            case .players: return .answered(try await client.players(team: "emelec").source)
            case .matches: return .answered(try await client.matches(league: "serie-a").source)
            case .image:
                let download = try await client.image(.url(remote.appendingPathComponent("images/teams/emelec.png")))
                for try await _ in download {}
                return .answered(download.header.source)
            }
        } catch ClientError.server(let body) {
            return .failed(body.code)
        } catch {
            return .failed(.internal)
        }
    }

    static func expected(_ method: Method, online: Bool, _ state: CacheState) -> Outcome {
        let fresh = state == .fresh
        switch (method, online) {
        case (.matches, true): return .answered(.remote)                       // remote first
        case (_, true): return .answered(fresh ? .cache : .remote)             // cache first
        case (_, false): return fresh ? .answered(.cache) : .failed(.connectivity)
        }
    }

    @Test("Each method delivers what its use case promises", arguments: Method.allCases, [true, false])
    func scenarios(method: Method, online: Bool) async throws {
        for state in CacheState.allCases {
            let sample = BundledSampleData.baseURL
            let server = try await LoopbackHTTPServer.start { _ in .file(root: sample) }
            let directory = TemporaryDirectory()
            if state != .empty {
                let filler = try await RunningDaemon(remote: server.baseURL, directory: directory)
                let client = try await filler.client()
                #expect(await Self.ask(method, client, remote: server.baseURL) == .answered(.remote))
                client.close()
                _ = await filler.stop()
            }
            if !online { try await server.shutdown() }
            let daemon = try await RunningDaemon(
                remote: server.baseURL, directory: directory, extra: state == .expired ? ["--max-cache-age", "0"] : [])
            let client = try await daemon.client()
            let outcome = await Self.ask(method, client, remote: server.baseURL)
            #expect(outcome == Self.expected(method, online: online, state), "\(method) \(online ? "online" : "offline") \(state)")
            client.close()
            _ = await daemon.stop()
            try await server.shutdown()
        }
    }
}
