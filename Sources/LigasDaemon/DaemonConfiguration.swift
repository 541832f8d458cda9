import Foundation
import LigasComposition
import LigasDomain
import LigasRemote
import LigasSampleData
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
    /// Base URL of the `ligas-rest` source; the bundled sample data when unset.
    public var remote: URL = BundledSampleData.baseURL
    /// Base URL of the `seed-football-api` source, if any.
    public var seedRemote: URL?
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

    /// The engine's part of the configuration.
    var engine: EngineConfiguration {
        var sources = [RemoteSource(dataSource: .ligasREST, baseURL: remote, apiKey: apiKey)]
        if let seedRemote { sources.append(RemoteSource(dataSource: .seedFootballAPI, baseURL: seedRemote, apiKey: apiKey)) }
        var configuration = EngineConfiguration(sources: sources)
        configuration.cachePolicy = CachePolicy(maxAge: maxCacheAge)
        configuration.imageChunkSize = limits.chunkSize
        configuration.remoteFirstBudget = remoteFirstBudget
        return configuration
    }
}

/// A setting that could not be understood; the daemon refuses to start with it.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public let key: String
    public let value: String
    public let expected: String

    public init(key: String, value: String, expected: String) {
        self.key = key
        self.value = value
        self.expected = expected
    }

    public var description: String { "\(key)=\(value): expected \(expected)" }
}

extension DaemonConfiguration {
    /// Resolves the settings (`DaemonSetting.all`): the defaults, then the config file (`configFile`,
    /// else `LIGASD_CONFIG`), then the environment, then `commandLine` (values by `LIGASD_*` name);
    /// the API key in `$CREDENTIALS_DIRECTORY/api-key`, if there is one, wins over `LIGASD_API_KEY`.
    public static func resolve(
        commandLine: [String: String] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        configFile: String? = nil
    ) throws -> DaemonConfiguration {
        var settings: [String: String] = [:]
        if let path = configFile ?? environment["LIGASD_CONFIG"] {
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
        return configuration
    }
}
