import FoundationEssentials
import Glibc
import LigasComposition
import LigasDomain
import LigasRemote
import LigasSampleDataLocation
import LigasServer
import LigasSystemd
import Logging

/// Everything ligasd can be told, resolved from (lowest to highest precedence) built-in
/// defaults, the config file, the environment and the command line. Every setting has one
/// name, `LIGASD_*`, used alike in the file (`KEY=value` lines) and the environment.
public struct DaemonConfiguration: Sendable {
    /// Bind this path instead of taking a socket from systemd.
    public var socketPath: String?
    public var socketMode: mode_t = 0o660
    /// What serves Serie A and B; unset: the sample data, or `ligas-rest` when `remote` is set.
    public var source: Source?
    /// Base URL of the `ligas-rest` source; the bundled sample data when unset.
    public var remote: URL = BundledSampleData.baseURL
    /// Base URL of the `seed-football-api` source, if any.
    public var seedRemote: URL?
    /// The RapidAPI providers' base URLs (for tests and mirrors).
    public var flashLiveURL: URL = FlashLive.defaultBaseURL
    public var transfermarktURL: URL = Transfermarkt.defaultBaseURL
    /// FlashLive season and stage ids set by hand, instead of those its tournaments list gives.
    public var flashLiveSeasons: [LeagueSeason] = []
    /// Requests per metered provider and calendar month.
    public var monthlyRequests = EngineConfiguration.defaultMonthlyRequestBudget
    /// Never printed: `APIKey` redacts itself.
    public var apiKey: APIKey?
    public var cacheFile: URL = CacheStoreOpening.defaultFileURL()
    public var maxCacheAge: TimeInterval = CachePolicy.sevenDays
    public var remoteFirstBudget = EngineConfiguration.defaultRemoteFirstBudget
    public var imageCacheBytes = 256 << 20
    public var limits = ServerLimits()
    /// Exit after this long without connections when socket-activated; nil never.
    public var idleExit: Duration? = .seconds(60)
    public var shutdownGrace: Duration = .seconds(10)
    public var logTarget: LogTarget = .auto
    public var logLevel: Logger.Level = .info

    public init() {}

    /// The choices of `LIGASD_SOURCE`.
    public enum Source: String, Sendable, CaseIterable {
        /// The bundled sample data (the `ligas-rest` contract over files shipped with ligasd).
        case sample
        /// The `ligas-rest` contract at `LIGASD_REMOTE`.
        case ligasREST = "ligas-rest"
        /// Only the `seed-football-api` source at `LIGASD_SEED_REMOTE`.
        case seed
        /// FlashLive and Transfermarkt on RapidAPI (an API key is needed).
        case rapidAPI = "rapidapi"
    }

    /// The source in force: the one set, else `sample`, or `ligas-rest` when `LIGASD_REMOTE` is set.
    public var effectiveSource: Source {
        source ?? (remote == BundledSampleData.baseURL ? .sample : .ligasREST)
    }

    /// The remotes the source needs, and a seed source besides when one is set. The key goes only
    /// to the source `LIGASD_SOURCE` names (both RapidAPI providers share one key): one
    /// provider's key must never reach another server, so a seed source beside another source,
    /// and the bundled files, get none.
    var remoteSources: [RemoteSource] {
        var sources: [RemoteSource] = switch effectiveSource {
        case .sample: [RemoteSource(dataSource: .ligasREST, baseURL: BundledSampleData.baseURL)]
        case .ligasREST: [RemoteSource(dataSource: .ligasREST, baseURL: remote, apiKey: apiKey)]
        case .seed: []
        case .rapidAPI: [
            RemoteSource(dataSource: .flashLive, baseURL: flashLiveURL, apiKey: apiKey),
            RemoteSource(dataSource: .transfermarkt, baseURL: transfermarktURL, apiKey: apiKey),
        ]
        }
        if let seedRemote {
            sources.append(RemoteSource(dataSource: .seedFootballAPI, baseURL: seedRemote, apiKey: effectiveSource == .seed ? apiKey : nil))
        }
        return sources
    }

    /// The base URLs in use, for the start-up log line (never a key: keys are not in URLs).
    /// Concatenated by hand: the standard library's unspecialised `joined(separator:)` made the
    /// runtime scan every protocol conformance in ligasd at start (see `first(of:)`, DaemonServices).
    var sourceURLs: String {
        var urls = ""
        for source in remoteSources {
            urls += (urls.isEmpty ? "" : " ") + RemoteFailure.redacted(source.baseURL)
        }
        return urls
    }

    /// What the chosen source cannot do without.
    func validate() throws {
        switch effectiveSource {
        case .seed where seedRemote == nil:
            throw ConfigurationError(key: "LIGASD_SOURCE", value: "seed", expected: "LIGASD_SEED_REMOTE set as well")
        case .rapidAPI where apiKey == nil:
            throw ConfigurationError(
                key: "LIGASD_SOURCE", value: "rapidapi",
                expected: "a RapidAPI key in $CREDENTIALS_DIRECTORY/api-key (LoadCredential=) or LIGASD_API_KEY")
        default:
            break
        }
    }

    /// The engine's part of the configuration.
    var engine: EngineConfiguration {
        var configuration = EngineConfiguration(sources: remoteSources)
        configuration.seasonOverrides = flashLiveSeasons
        configuration.monthlyRequestBudget = monthlyRequests
        configuration.cachePolicy = CachePolicy(maxAge: maxCacheAge)
        configuration.imageChunkSize = limits.chunkSize
        configuration.remoteFirstBudget = remoteFirstBudget
        return configuration
    }
}

/// A setting that could not be understood; the daemon refuses to start with it.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public let key: String
    /// Nil when it must not be shown.
    public let value: String?
    public let expected: String

    public init(key: String, value: String?, expected: String) {
        self.key = key
        self.value = value
        self.expected = expected
    }

    public var description: String { description(valueLimit: .max) }

    /// The description with the value cut to `limit` characters, "…" marking the cut: for where a
    /// value of any length cannot go whole, and what was expected must still be said.
    public func description(valueLimit limit: Int) -> String {
        let shown = value.map { $0.count > limit ? $0.prefix(limit) + "…" : $0 }
        return "\(shown.map { "\(key)=\($0)" } ?? key): expected \(expected)"
    }

    /// A `LIGASD_*` variable that is no setting. A misspelt name in the units' `EnvironmentFile=`
    /// arrives so: systemd reads that file, not ligasd. Its value is not shown (it may be a key).
    public static func unknownEnvironmentName(_ name: String) -> ConfigurationError {
        ConfigurationError(key: "\(name) (in the environment; under systemd, from EnvironmentFile=)", value: nil, expected: knownName)
    }

    /// What an unknown `LIGASD_*` name should have been, in the file or the environment.
    static let knownName = "a known LIGASD_* setting name (ligasd --help lists them)"

    /// What an error about a config file line may show of the name it read there: only a name
    /// shaped like a setting's (`LIGASD_`, then capitals, digits and `_`). Anything else may be a
    /// key pasted on its own line (`LIGASD_API_KEY abc…`, or a key that ends in `=`).
    static func shownName(_ name: String) -> String? {
        let shaped = name.hasPrefix("LIGASD_") && name.utf8.count <= 64
            && name.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_") }
        return shaped ? name : nil
    }
}

extension DaemonConfiguration {
    /// Resolves the settings (`DaemonSetting.all`): the defaults, then the config file (`configFile`,
    /// else `LIGASD_CONFIG`), then the environment, then `commandLine` (values by `LIGASD_*` name);
    /// the API key in `$CREDENTIALS_DIRECTORY/api-key`, if there is one, wins over `LIGASD_API_KEY`.
    /// Any other `LIGASD_*` name in the environment stops ligasd, as in the file.
    public static func resolve(
        commandLine: [String: String] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        configFile: String? = nil
    ) throws -> DaemonConfiguration {
        if let unknown = environment.keys.filter(isUnknownSettingName).min() { throw ConfigurationError.unknownEnvironmentName(unknown) }
        var settings: [String: String] = [:]
        if let path = configFile ?? environment[configFileVariable] {
            settings = try ConfigFile.read(path: path)
        }
        for setting in DaemonSetting.all {
            if let value = environment[setting.name] { settings[setting.name] = value }
        }
        settings.merge(commandLine) { $1 }
        var configuration = DaemonConfiguration()
        for setting in DaemonSetting.all {
            if let value = settings[setting.name] { try setting.apply(&configuration, value) }
        }
        configuration.apiKey = try CredentialLoading.apiKey(environment: environment) ?? configuration.apiKey
        try configuration.validate()
        return configuration
    }

    /// The config file's path: the one `LIGASD_*` variable that is no setting (the file cannot name itself).
    static let configFileVariable = "LIGASD_CONFIG"

    private static func isUnknownSettingName(_ name: String) -> Bool {
        name.hasPrefix("LIGASD_") && name != configFileVariable && DaemonSetting.named(name) == nil
    }
}
