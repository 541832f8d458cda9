import Foundation
@testable import LigasDaemon
import LigasDomain
import LigasRemote
import LigasSampleDataLocation
import Testing

/// `LIGASD_SOURCE` and the RapidAPI settings: which remotes a configuration gives the engine.
@Suite("ligasd's source setting")
struct SourceSettingTests {
    @Test("Unset: the bundled sample data; with LIGASD_REMOTE set: ligas-rest there, as before the setting existed")
    func defaultSource() throws {
        let plain = try DaemonConfiguration.resolve(environment: [:])
        #expect(plain.effectiveSource == .sample)
        #expect(plain.remoteSources.map(\.baseURL) == [BundledSampleData.baseURL])

        let rest = try DaemonConfiguration.resolve(environment: ["LIGASD_REMOTE": "http://127.0.0.1:9/data"])
        #expect(rest.effectiveSource == .ligasREST)
        #expect(rest.remoteSources.map(\.dataSource) == [.ligasREST])
        #expect(rest.remoteSources.map(\.baseURL.absoluteString) == ["http://127.0.0.1:9/data/"])

        let sample = try DaemonConfiguration.resolve(environment: ["LIGASD_REMOTE": "http://127.0.0.1:9/data", "LIGASD_SOURCE": "sample"])
        #expect(sample.remoteSources.map(\.baseURL) == [BundledSampleData.baseURL])
    }

    @Test("rapidapi: FlashLive and Transfermarkt, at LIGASD_FLASHLIVE_URL and LIGASD_TRANSFERMARKT_URL when set, both with the key")
    func rapidAPI() throws {
        let defaults = try DaemonConfiguration.resolve(environment: ["LIGASD_SOURCE": "RapidAPI", "LIGASD_API_KEY": "k"])
        #expect(defaults.remoteSources.map(\.dataSource) == [.flashLive, .transfermarkt])
        #expect(defaults.remoteSources.map(\.baseURL.absoluteString)
            == ["https://flashlive-sports.p.rapidapi.com/", "https://transfermarket.p.rapidapi.com/"])
        #expect(defaults.remoteSources.allSatisfy { $0.apiKey == APIKey("k") })

        let mirrors = try DaemonConfiguration.resolve(
            commandLine: try SettingFlags.parse(["--source", "rapidapi", "--flashlive-url", "http://127.0.0.1:1/"]).values,
            environment: ["LIGASD_TRANSFERMARKT_URL": "http://127.0.0.1:2/", "LIGASD_API_KEY": "k"])
        #expect(mirrors.remoteSources.map(\.baseURL.absoluteString) == ["http://127.0.0.1:1/", "http://127.0.0.1:2/"])
    }

    @Test("The key goes only to the source LIGASD_SOURCE names: never to a seed source beside it, nor to the bundled files")
    func keyStaysWithItsSource() throws {
        let seed = "http://127.0.0.1:3/"
        let rapid = try DaemonConfiguration.resolve(environment: ["LIGASD_SOURCE": "rapidapi", "LIGASD_API_KEY": "k", "LIGASD_SEED_REMOTE": seed])
        #expect(rapid.remoteSources.map(\.dataSource) == [.flashLive, .transfermarkt, .seedFootballAPI])
        #expect(rapid.remoteSources.map(\.apiKey) == [APIKey("k"), APIKey("k"), nil])

        let rest = try DaemonConfiguration.resolve(environment: ["LIGASD_REMOTE": "http://127.0.0.1:9/", "LIGASD_API_KEY": "k", "LIGASD_SEED_REMOTE": seed])
        #expect(rest.remoteSources.map(\.apiKey) == [APIKey("k"), nil])

        let seedOnly = try DaemonConfiguration.resolve(environment: ["LIGASD_SOURCE": "seed", "LIGASD_API_KEY": "k", "LIGASD_SEED_REMOTE": seed])
        #expect(seedOnly.remoteSources.map(\.apiKey) == [APIKey("k")])

        let sample = try DaemonConfiguration.resolve(environment: ["LIGASD_API_KEY": "k"])
        #expect(sample.remoteSources.map(\.apiKey) == [nil])
    }

    @Test("rapidapi without a key, seed without its URL, or a source nobody knows: ligasd refuses to start, saying what is missing")
    func refusals() {
        #expect(throws: ConfigurationError(
            key: "LIGASD_SOURCE", value: "rapidapi",
            expected: "a RapidAPI key in $CREDENTIALS_DIRECTORY/api-key (LoadCredential=) or LIGASD_API_KEY")) {
            try DaemonConfiguration.resolve(environment: ["LIGASD_SOURCE": "rapidapi"])
        }
        #expect(throws: ConfigurationError(key: "LIGASD_SOURCE", value: "seed", expected: "LIGASD_SEED_REMOTE set as well")) {
            try DaemonConfiguration.resolve(environment: ["LIGASD_SOURCE": "seed"])
        }
        #expect(throws: ConfigurationError(key: "LIGASD_SOURCE", value: "espn", expected: "sample, ligas-rest, seed or rapidapi")) {
            try DaemonConfiguration.resolve(environment: ["LIGASD_SOURCE": "espn"])
        }
    }

    @Test("The key from $CREDENTIALS_DIRECTORY/api-key satisfies rapidapi, and never shows in the start-up line's URLs")
    func credentialKey() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ligas-cred-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "secret-from-credential\n".write(to: directory.appendingPathComponent("api-key"), atomically: true, encoding: .utf8)

        let configuration = try DaemonConfiguration.resolve(
            environment: ["LIGASD_SOURCE": "rapidapi", "CREDENTIALS_DIRECTORY": directory.path, "LIGASD_API_KEY": "from-env"])

        #expect(configuration.apiKey == APIKey("secret-from-credential"))
        #expect(!configuration.sourceURLs.contains("secret"))
        #expect(!"\(configuration.apiKey as Any)".contains("secret"))
    }

    @Test("LIGASD_FLASHLIVE_SEASONS: league=season/stage pairs; anything else is named")
    func flashLiveSeasons() throws {
        let configuration = try DaemonConfiguration.resolve(
            environment: ["LIGASD_FLASHLIVE_SEASONS": "serie-a=IaFDigtm/OO37de6i, serie-b=0O4IjDeg/Au6JggjA"])
        #expect(configuration.flashLiveSeasons == [
            LeagueSeason(league: "serie-a", seasonID: "IaFDigtm", stageID: "OO37de6i"),
            LeagueSeason(league: "serie-b", seasonID: "0O4IjDeg", stageID: "Au6JggjA"),
        ])
        #expect(configuration.engine.seasonOverrides == configuration.flashLiveSeasons)
        #expect(throws: ConfigurationError(
            key: "LIGASD_FLASHLIVE_SEASONS", value: "serie-a=IaFDigtm",
            expected: "LEAGUE=SEASON/STAGE pairs separated by commas, e.g. serie-a=IaFDigtm/OO37de6i")) {
            try DaemonConfiguration.resolve(environment: ["LIGASD_FLASHLIVE_SEASONS": "serie-a=IaFDigtm"])
        }
    }

    @Test("LIGASD_MONTHLY_REQUESTS: the engine's monthly budget per provider; 500 unless set")
    func monthlyRequests() throws {
        #expect(try DaemonConfiguration.resolve(environment: [:]).engine.monthlyRequestBudget == 500)
        #expect(try DaemonConfiguration.resolve(environment: ["LIGASD_MONTHLY_REQUESTS": "40"]).engine.monthlyRequestBudget == 40)
        #expect(throws: ConfigurationError(key: "LIGASD_MONTHLY_REQUESTS", value: "0", expected: "a whole number from 1 to 9223372036854775807")) {
            try DaemonConfiguration.resolve(environment: ["LIGASD_MONTHLY_REQUESTS": "0"])
        }
    }
}
