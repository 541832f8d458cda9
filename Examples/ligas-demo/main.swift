import ArgumentParser
import Foundation
import LigasComposition
import LigasDomain
import LigasRemote
import LigasSampleDataLocation
import Logging

/// Runs every use case of the data engine once, on the bundled sample data (or another remote),
/// with a real SQLite cache, and prints what was delivered and where it came from.
@main
struct LigasDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ligas-demo",
        abstract: "Exercise the ligasd data engine on the bundled sample data.")

    @Option(help: "The ligas-rest base URL (http://, https:// or file://). Default: the bundled sample data.")
    var remote: String?

    @Option(help: "The SQLite cache file. Default: $CACHE_DIRECTORY, $XDG_CACHE_HOME/ligasd or ~/.cache/ligasd.")
    var cache: String?

    @Option(help: "default, refresh or offline.")
    var policy: String = "default"

    @Option(help: "The league whose teams and matches are shown.")
    var league: String = "serie-a"

    mutating func run() async throws {
        guard let policy = LoadPolicy(rawValue: policy) else {
            throw ValidationError("--policy must be default, refresh or offline")
        }
        var logger = Logger(label: "ligas-demo")
        logger.logLevel = .notice
        let baseURL = try remote.map { try Self.url($0) } ?? BundledSampleData.baseURL
        let cacheURL = cache.map { URL(fileURLWithPath: $0) } ?? CacheStoreOpening.defaultFileURL()
        let opened = try OpenedEngine.open(
            configuration: EngineConfiguration(sources: [RemoteSource(dataSource: .ligasREST, baseURL: baseURL)]),
            cacheFile: cacheURL, imageCacheBytes: 64 * 1024 * 1024, logger: logger)
        let engine = opened.engine

        print("remote: \(baseURL.absoluteString)\ncache:  \(cacheURL.path)\npolicy: \(policy.rawValue)\n")
        let report = try await engine.validateCache()
        print("validate cache: \(report.deletedCount) entries deleted")
        do {
            try await show(engine, policy: policy)
        } catch {
            print("error: \(error)")
        }
        await opened.shutdown()
    }

    private func show(_ engine: LigasEngine, policy: LoadPolicy) async throws {
        let leagues = await engine.leagues(policy: policy)
        print("\nleagues (\(leagues.origin.rawValue)):")
        for league in leagues.value { print("  \(league.id.padding(toLength: 10, withPad: " ", startingAt: 0)) \(league.name)") }

        let teams = try await engine.teams(league: league, policy: policy)
        print("\nteams of \(league) (\(teams.origin.rawValue)): \(teams.value.count)")
        for team in teams.value { print("  \(team.id.padding(toLength: 26, withPad: " ", startingAt: 0)) \(team.name)") }

        guard let team = teams.value.first else { return }
        let players = try await engine.players(team: team.id, policy: policy)
        print("\nplayers of \(team.name) (\(players.origin.rawValue)): \(players.value.count)")
        for player in players.value.prefix(5) {
            print("  #\(player.number.map(String.init) ?? "-") \(player.name) (\(player.position.rawValue))")
        }

        let matches = try await engine.matches(league: league, team: team.id, policy: policy)
        print("\nmatches of \(team.name) (\(matches.origin.rawValue)): \(matches.value.previous.count) played, \(matches.value.upcoming.count) upcoming")
        for played in matches.value.previous.prefix(3) {
            print("  \(played.match.date.formatted(date: .abbreviated, time: .shortened))  \(played.match.description)  -> \(played.winner)")
        }

        let logo = try await engine.image(url: team.logoURL, policy: policy)
        let image = try await logo.value.collect()
        print("\nlogo of \(team.name) (\(logo.origin.rawValue)): \(image.bytes.count) bytes, \(image.contentType)")
    }

    private static func url(_ text: String) throws -> URL {
        if text.hasPrefix("/") { return URL(fileURLWithPath: text, isDirectory: true) }
        guard let url = URL(string: text), url.scheme != nil else { throw ValidationError("not a URL: \(text)") }
        return url
    }
}
