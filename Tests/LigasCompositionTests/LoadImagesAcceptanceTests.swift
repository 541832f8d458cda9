import Foundation
import LigasCacheStore
import LigasComposition
import LigasDomain
import LigasTestSupport
import Testing

@Suite("Acceptance: images (cache first, streamed)")
struct ImagesAcceptanceTests {
    /// Loads Serie A's teams online (so their logos are "ligasd's own data") and returns Emelec's logo URL.
    func emelecLogo(_ environment: AcceptanceEnvironment) async throws -> URL {
        try await environment.engine(online: true).teams(league: "serie-a").value.first { $0.id == "emelec" }!.logoURL
    }

    @Test("Online, empty cache: streams the remote's image, then caches it", arguments: [LoadPolicy.default, .refresh])
    func onlineEmpty(policy: LoadPolicy) async throws {
        try await AcceptanceEnvironment.run { environment in
            let url = try await emelecLogo(environment)

            let loaded = try await environment.engine(online: true).image(url: url, policy: policy)
            let image = try await loaded.value.collect()

            #expect(loaded.origin == .remote)
            #expect(image.contentType == "image/png")
            #expect(ImageSignature.contentType(ofPrefix: image.bytes) == "image/png")
            #expect(try environment.cachedImage(url)?.image == image)
        }
    }

    @Test("Online or offline, cached image: delivered from the cache without a request", arguments: [true, false])
    func cached(online: Bool) async throws {
        try await AcceptanceEnvironment.run { environment in
            let url = try await emelecLogo(environment)
            let original = try await environment.engine(online: true).image(url: url).value.collect()
            let requestsBefore = environment.requestPaths.count

            let loaded = try await environment.engine(online: online).image(url: url)

            #expect(loaded.origin == .cache)
            #expect(try await loaded.value.collect() == original)
            #expect(environment.requestPaths.count == requestsBefore)
        }
    }

    @Test("A cached logo read once is ready now: the stored bytes and digest, by URL or by team, told without waiting")
    func readyNow() async throws {
        try await AcceptanceEnvironment.run { environment in
            let engine = try environment.engine(online: true)
            let url = try await engine.teams(league: "serie-a").value.first { $0.id == "emelec" }!.logoURL
            _ = try await engine.image(url: url).value.collect()  // from the remote, then cached
            #expect(engine.imageNow(of: .url(url), policy: .default) == nil)  // not read from the cache yet

            let cached = try await engine.image(url: url).value.collect()
            let now = try #require(engine.imageNow(of: .url(url), policy: .default))

            #expect(now.origin == .cache)
            #expect(now.value.image == cached)
            #expect(now.value.sha256 == (try SQLiteCacheStore(fileURL: environment.cacheURL).openImage(for: url)?.sha256))
            #expect(engine.imageNow(of: .team("emelec"), policy: .offline)?.value.image == cached)
            #expect(engine.imageNow(of: .url(url), policy: .refresh) == nil)
            environment.clock.advance(by: .sevenDays)
            #expect(engine.imageNow(of: .url(url), policy: .default) == nil)
        }
    }

    @Test("Offline, image not cached: connectivity error (the URL is known from the cached teams)")
    func offlineEmpty() async throws {
        try await AcceptanceEnvironment.run { environment in
            let url = try await emelecLogo(environment)
            try await environment.server.shutdown()  // the logo's host goes away too
            await #expect { try await environment.engine(online: false).image(url: url) } throws: { error in
                if case LigasError.connectivity = error { return true } else { return false }
            }
        }
    }

    @Test("Online, expired image: downloaded again and re-cached")
    func expired() async throws {
        try await AcceptanceEnvironment.run { environment in
            let url = try await emelecLogo(environment)
            _ = try await environment.engine(online: true).image(url: url).value.collect()
            environment.clock.advance(by: .sevenDays)

            let loaded = try await environment.engine(online: true).image(url: url)
            _ = try await loaded.value.collect()

            #expect(loaded.origin == .remote)
            #expect(try environment.cachedImage(url)?.timestamp == environment.clock.now)
        }
    }

    @Test("Not found: an image the remote does not have")
    func notFound() async throws {
        try await AcceptanceEnvironment.run { environment in
            let missing = environment.server.baseURL.appendingPathComponent("images/teams/nope.png")
            await #expect(throws: LigasError.notFound("127.0.0.1:\(environment.server.port) answered HTTP 404 for /images/teams/nope.png")) {
                try await environment.engine(online: true).image(url: missing)
            }
        }
    }

    @Test("A URL outside ligasd's own data and sources is refused without any request")
    func arbitraryURL() async throws {
        try await AcceptanceEnvironment.run { environment in
            let engine = try environment.engine(online: true)
            for url in ["http://169.254.169.254/latest/meta-data", "file:///etc/passwd",
                        environment.server.baseURL.absoluteString + "images/../../etc/passwd",
                        environment.server.baseURL.absoluteString + "images/..;/admin",
                        environment.server.baseURL.absoluteString + "images/%2fadmin",
                        environment.server.baseURL.absoluteString + "images/%2E%2E/admin"] {
                await #expect(throws: LigasError.notFound("image URL is not part of ligasd's data")) {
                    try await engine.image(url: URL(string: url)!)
                }
            }
            #expect(environment.requestPaths.isEmpty)
        }
    }

    @Test("A remote's data cannot make ligasd read a local file: a file: logo from an http source is refused, by team and by URL, before and after a restart")
    func fileLogoFromAnHTTPSource() async throws {
        let secrets = TemporaryDirectory()
        let secret = secrets.url.appendingPathComponent("secret.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("private".utf8)).write(to: secret)
        let teams = #"{"teams":[{"id":"emelec","name":"Emelec","logo":"\#(secret.absoluteString)"}]}"#
        try await AcceptanceEnvironment.run(serving: { _ in .ok(Data(teams.utf8), contentType: "application/json") }) { environment in
            let engine = try environment.engine(online: true)
            #expect(try await engine.teams(league: "serie-a").value.map(\.logoURL) == [secret])
            for restarted in [false, true] {
                let engine = restarted ? try environment.engine(online: true) : engine
                await #expect(throws: LigasError.notFound("image URL is not part of ligasd's data")) {
                    try await engine.image(of: .team("emelec"))
                }
                await #expect(throws: LigasError.notFound("image URL is not part of ligasd's data")) {
                    try await engine.image(url: secret)
                }
            }
            #expect(try environment.cachedImage(secret) == nil)
        }
    }

    @Test("Cancel course: a download cancelled mid-stream delivers nothing more and caches nothing")
    func cancelledDownload() async throws {
        let big = Fixtures.pngImage(size: 4 << 20)
        try await AcceptanceEnvironment.run(serving: { path in
            path.hasSuffix("teams.json")
                ? .ok(Data(#"{"teams":[{"id":"big","name":"Big","logo":"images/big.png"}]}"#.utf8), contentType: "application/json")
                : .ok(big, contentType: "image/png")
        }) { environment in
            let engine = try environment.engine(online: true)
            let url = try await engine.teams(league: "serie-a").value[0].logoURL
            let stream = try await engine.image(url: url).value

            let received = await Task {
                var bytes = 0
                for try await chunk in stream {
                    bytes += chunk.count
                    withUnsafeCurrentTask { $0?.cancel() }
                }
                return bytes
            }.result

            #expect(try received.get() < big.count)
            #expect(try environment.cachedImage(url) == nil)
        }
    }
}

/// `image` by league, team or player: finding the URL follows the caller's policy like any load.
@Suite("Acceptance: images by league, team or player")
struct ImageSubjectsAcceptanceTests {
    @Test("Offline, nothing cached: a team's logo is 'no cache', and neither the network nor the teams entry is touched")
    func offlineTeamNeverTouchesNetwork() async throws {
        try await AcceptanceEnvironment.run { environment in
            let engine = try environment.engine(online: true)

            await #expect(throws: LigasError.noCache) { try await engine.image(of: .team("emelec"), policy: .offline) }

            #expect(environment.requestPaths.isEmpty)
            #expect(try environment.cached()["teams/serie-a"] == nil)
        }
    }

    @Test("Offline, expired teams: a team's logo is 'no cache', and a later plain load still goes to the remote")
    func offlineExpiredTeams() async throws {
        try await AcceptanceEnvironment.run { environment in
            let engine = try environment.engine(online: true)
            _ = try await engine.teams(league: "serie-a")
            _ = try await engine.teams(league: "serie-b")
            environment.clock.advance(by: .sevenDays)
            let requestsBefore = environment.requestPaths.count

            await #expect(throws: LigasError.noCache) { try await engine.image(of: .team("emelec"), policy: .offline) }
            #expect(environment.requestPaths.count == requestsBefore)
            #expect(try await engine.teams(league: "serie-a").origin == .remote)
        }
    }

    @Test("Offline, cached teams and logo: the logo, without a request")
    func offlineCachedTeamLogo() async throws {
        try await AcceptanceEnvironment.run { environment in
            let engine = try environment.engine(online: true)
            _ = try await engine.image(of: .team("emelec")).value.collect()
            let requestsBefore = environment.requestPaths.count

            let loaded = try await environment.engine(online: false).image(of: .team("emelec"), policy: .offline)

            #expect(loaded.origin == .cache)
            #expect(environment.requestPaths.count == requestsBefore)
        }
    }

    @Test("Default, nothing cached: a player's photo loads the lists it needs, then the photo")
    func defaultPlayerPhotoLoadsWhatIsNeeded() async throws {
        try await AcceptanceEnvironment.run { environment in
            let engine = try environment.engine(online: true)

            let loaded = try await engine.image(of: .player("emelec-15"))
            let image = try await loaded.value.collect()

            #expect(loaded.origin == .remote)
            #expect(image.contentType == "image/png")
            // Squads are loaded only until the player is found: Barcelona's, then Emelec's.
            #expect(environment.requestPaths == [
                "/leagues/serie-a/teams.json", "/teams/barcelona-sc/players.json", "/teams/emelec/players.json",
                "/images/players/emelec-15.png",
            ])
        }
    }

    @Test("Offline, nothing cached: a player's photo is 'no cache' without a request", arguments: ["emelec-01", "no-such-player"])
    func offlinePlayerPhoto(player: String) async throws {
        try await AcceptanceEnvironment.run { environment in
            await #expect(throws: LigasError.noCache) {
                try await environment.engine(online: true).image(of: .player(player), policy: .offline)
            }
            #expect(environment.requestPaths.isEmpty)
        }
    }

    @Test("A player without a photo is 'not found', and says so")
    func playerWithoutPhoto() async throws {
        try await AcceptanceEnvironment.run { environment in
            await #expect(throws: LigasError.notFound("player 'emelec-01' has no photo")) {
                try await environment.engine(online: true).image(of: .player("emelec-01"))
            }
        }
    }

    @Test("A team, league or player that does not exist is 'not found'", arguments: [
        ImageSubject.team("no-such-team"), .league("no-such-league"), .player("no-such-player"),
    ])
    func unknownSubject(subject: ImageSubject) async throws {
        try await AcceptanceEnvironment.run { environment in
            await #expect { try await environment.engine(online: true).image(of: subject) } throws: { error in
                if case LigasError.notFound = error { return true } else { return false }
            }
        }
    }

    @Test("A league's logo needs no list from the network, offline too")
    func leagueLogoOffline() async throws {
        try await AcceptanceEnvironment.run { environment in
            _ = try await environment.engine(online: true).image(of: .league("serie-a")).value.collect()
            let requestsBefore = environment.requestPaths.count

            let loaded = try await environment.engine(online: false).image(of: .league("serie-a"), policy: .offline)

            #expect(loaded.origin == .cache)
            #expect(environment.requestPaths.count == requestsBefore)
        }
    }
}
