import Foundation
import Glibc
import LigasClient
import LigasProtocol
import LigasSampleDataLocation
import LigasTestSupport
import Testing

/// The real ligasd binary, over its real socket, against a real HTTP remote on loopback that
/// serves the bundled sample data.
@Suite("ligasd end to end")
struct DaemonEndToEndTests {
    static func withDaemon(
        remote reply: (@Sendable (String) -> LoopbackHTTPServer.Reply)? = nil,
        extra: [String] = [],
        _ body: (RunningDaemon, LoopbackHTTPServer) async throws -> Void
    ) async throws {
        let sample = BundledSampleData.baseURL
        let server = try await LoopbackHTTPServer.start(reply ?? { _ in .file(root: sample) })
        let daemon = try await RunningDaemon(remote: server.baseURL, extra: extra)
        let outcome = await asyncResult { try await body(daemon, server) }
        _ = await daemon.stop()
        try await server.shutdown()
        try outcome.get()
    }

    @Test("Every method answers over the socket")
    func everyMethod() async throws {
        try await Self.withDaemon { daemon, _ in
            let client = try await daemon.client()
            defer { client.close() }
            try await client.ping()

            let leagues = try await client.leagues()
            #expect(leagues.value.map(\.id) == ["serie-a", "serie-b"])
            let teams = try await client.teams(league: "serie-a")
            #expect(teams.source == .remote)
            #expect(teams.value.count == 16)
            let players = try await client.players(team: "emelec")
            #expect(players.value.count == 23)
            let matches = try await client.matches(league: "serie-a", team: "emelec")
            #expect(matches.value.previous.count == 4)
            #expect(matches.value.upcoming.count == 2)

            for which in [ImageArguments.team("emelec"), .league("serie-a"), .url(teams.value[0].logoURL)] {
                let download = try await client.image(which)
                var bytes = Data()
                for try await chunk in download { bytes.append(chunk) }
                #expect(download.header.contentType == "image/png")
                #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
                #expect(UInt64(bytes.count) == download.header.totalSize)
            }
            let captain = try #require(players.value.first { $0.photoURL != nil })
            var photo = 0
            for try await chunk in try await client.image(.player(captain.id)) { photo += chunk.count }
            #expect(photo > 0)

            let status = try await client.status()
            #expect(status.requestsServed >= 9)
            #expect(status.cacheMisses >= 4)
            let description = try await client.describe()
            #expect(!description.methods.isEmpty)
        }
    }

    @Test("A cache file with a page of its feed table overwritten: recreated at start-up, logged once, then filled again and sound across a restart")
    func corruptCachePage() async throws {
        let sample = BundledSampleData.baseURL
        let server = try await LoopbackHTTPServer.start { _ in .file(root: sample) }
        let directory = TemporaryDirectory()
        let outcome = await asyncResult {
            let filler = try await RunningDaemon(remote: server.baseURL, directory: directory)
            let fillerClient = try await filler.client()
            _ = try await fillerClient.teams(league: "serie-a")
            fillerClient.close()
            _ = await filler.stop()
            let cache = URL(fileURLWithPath: filler.cachePath)
            try BadCacheFiles.overwriteRootPage(of: "feed", in: cache)

            let daemon = try await RunningDaemon(remote: server.baseURL, directory: directory)
            let client = try await daemon.client()
            #expect(try await client.teams(league: "serie-a").source == .remote)
            client.close()
            _ = await daemon.stop()
            let recreated = daemon.child.errorOutput.components(separatedBy: "cache file found corrupt in use; emptied and recreated")
            #expect(recreated.count == 2, "logged once: \(daemon.child.errorOutput)")
            #expect(try BadCacheFiles.quickCheck(cache) == "ok")

            let restarted = try await RunningDaemon(remote: server.baseURL, directory: directory)
            let again = try await restarted.client()
            #expect(try await again.teams(league: "serie-a", cache: .offline).source == .cache)
            again.close()
            _ = await restarted.stop()
            #expect(!restarted.child.errorOutput.contains("corrupt"))
        }
        try await server.shutdown()
        try outcome.get()
    }

    @Test("Cached answers come from the cache the second time, and survive the remote going down")
    func cacheThenOffline() async throws {
        try await Self.withDaemon { daemon, server in
            let client = try await daemon.client()
            defer { client.close() }
            #expect(try await client.teams(league: "serie-b").source == .remote)
            #expect(try await client.teams(league: "serie-b").source == .cache)
            _ = try await client.matches(league: "serie-b")

            try await server.shutdown()

            #expect(try await client.teams(league: "serie-b").value.count == 10)
            let matches = try await client.matches(league: "serie-b")
            #expect(matches.source == .cache)
            await #expect(throws: ClientError.self) { try await client.players(team: "imbabura") }
            do {
                _ = try await client.players(team: "imbabura")
            } catch ClientError.server(let body) {
                #expect(body.code == .connectivity)
            }
        }
    }

    @Test("A logo asked for again and again: the same checked bytes, from the cache after the first (even with the remote down), counted as hits")
    func logoAgainAndAgain() async throws {
        try await Self.withDaemon { daemon, server in
            let client = try await daemon.client()
            defer { client.close() }
            func download() async throws -> (source: ResultSource, bytes: Data) {
                let download = try await client.image(.team("emelec"))
                var bytes = Data()
                for try await chunk in download { bytes.append(chunk) }
                return (download.header.source, bytes)
            }
            let first = try await download()
            let hitsBefore = try await client.status().cacheHits
            let second = try await download()
            try await server.shutdown()
            let third = try await download()

            #expect([first.source, second.source, third.source] == [.remote, .cache, .cache])
            #expect(first.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(second.bytes == first.bytes)
            #expect(third.bytes == first.bytes)
            #expect(try await client.status().cacheHits == hitsBefore + 2)
        }
    }

    @Test("Offline policy with nothing cached: noCache, and the remote sees no request")
    func offlineNothingCached() async throws {
        try await Self.withDaemon { daemon, server in
            let client = try await daemon.client()
            defer { client.close() }
            await #expect(throws: ClientError.server(ErrorBody(code: .noCache, message: "offline and nothing cached"))) {
                try await client.teams(league: "serie-a", cache: .offline)
            }
            #expect(server.requestCount == 0)
        }
    }

    @Test("Remote answering 503 and matches never cached: the remote's outcome (invalidData), not noCache")
    func matchesRemoteFailsNothingCached() async throws {
        try await Self.withDaemon(remote: { _ in .status(503) }) { daemon, _ in
            let client = try await daemon.client()
            defer { client.close() }
            do {
                _ = try await client.matches(league: "serie-a")
                Issue.record("expected an error")
            } catch ClientError.server(let body) {
                #expect(body.code == .invalidData)
                #expect(body.message.contains("503"), "\(body.message)")
            }
        }
    }

    @Test("An image URL that is not ligasd's own data is refused with notFound, and never fetched")
    func arbitraryImageURL() async throws {
        try await Self.withDaemon { daemon, server in
            let client = try await daemon.client()
            defer { client.close() }
            await #expect(throws: ClientError.server(ErrorBody(code: .notFound, message: "image URL is not part of ligasd's data"))) {
                try await client.image(.url(URL(string: "http://169.254.169.254/latest")!))
            }
            #expect(server.requestCount == 0)
        }
    }

    @Test("SIGTERM with requests in flight: every one completes, then ligasd exits 0")
    func sigtermDrains() async throws {
        let gate = Gate()
        let sample = BundledSampleData.baseURL
        try await Self.withDaemon(remote: { path in .gated(gate, then: .file(root: sample)) }) { daemon, server in
            let client = try await daemon.client()
            defer { client.close() }
            let inFlight = (0..<3).map { index in
                Task { try await client.teams(league: ["serie-a", "serie-b", "serie-a"][index]).value.count }
            }
            // Wait until the remote holds the daemon's requests, so they are truly in flight.
            try await poll("the remote holding two requests", every: .milliseconds(5)) { server.requestCount >= 2 ? () : nil }
            daemon.child.signal(SIGTERM)
            gate.open()
            let counts = try await inFlight.asyncMap { try await $0.value }
            #expect(counts == [16, 10, 16])
            #expect(try await daemon.child.waitForExit() == 0)
        }
    }

    @Test("--socket removes a stale socket file but refuses to replace a live one")
    func staleAndLiveSockets() async throws {
        try await Self.withDaemon { daemon, server in
            let second = try ChildProcess(Binaries.url("ligasd"), ["--socket", daemon.socketPath, "--remote", server.baseURL.absoluteString, "--cache", daemon.cachePath + "-2", "--log-target", "stderr"])
            #expect(try await second.waitForExit() == 1)
            #expect(second.errorOutput.contains("in use by a live server"))
        }
        let directory = TemporaryDirectory()
        let stale = directory.url.appendingPathComponent("ligasd.sock").path
        do {
            let listener = try UnixSocket.stream()
            try listener.bind(to: stale)
        }  // closed here; the file stays behind, with nobody listening: stale
        let daemon = try await RunningDaemon(remote: BundledSampleData.baseURL, directory: directory)
        var status = stat()
        #expect(stat(stale, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o660)
        _ = await daemon.stop()
    }

    @Test("At the connection cap, LigasClient.connect reports the daemon's tooManyRequests, even when its hello write fails")
    func connectionCapSeenByTheLibrary() async throws {
        let daemon = try await RunningDaemon(remote: BundledSampleData.baseURL, extra: ["--max-connections", "1"])
        // The start-up probe's connection may not be released yet: take the one slot once it is.
        let held = try await poll("the one connection slot", every: .milliseconds(10)) { try? await daemon.client() }
        var codes: [String] = []
        for _ in 0..<20 {
            do {
                let extra = try await LigasClient.connect(socketPath: daemon.socketPath)
                extra.close()
                codes.append("connected")
            } catch ClientError.server(let body) {
                codes.append("\(body.code)")
            } catch {
                codes.append("\(error)")
            }
        }
        #expect(codes == Array(repeating: "tooManyRequests", count: 20))
        held.close()
        _ = await daemon.stop()
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
