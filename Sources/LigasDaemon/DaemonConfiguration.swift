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

    public var description: String { "\(key)=\(value): expected \(expected)" }
}

extension DaemonConfiguration {
    /// The names of every setting, as accepted in the config file and the environment.
    public enum Key: String, CaseIterable, Sendable {
        case socket = "LIGASD_SOCKET"
        case socketMode = "LIGASD_SOCKET_MODE"
        case remote = "LIGASD_REMOTE"
        case seedRemote = "LIGASD_SEED_REMOTE"
        case apiKey = "LIGASD_API_KEY"
        case cache = "LIGASD_CACHE"
        case maxCacheAge = "LIGASD_MAX_CACHE_AGE"
        case remoteFirstBudget = "LIGASD_REMOTE_FIRST_BUDGET"
        case imageCacheBytes = "LIGASD_IMAGE_CACHE_BYTES"
        case maxConnections = "LIGASD_MAX_CONNECTIONS"
        case maxConnectionsPerUID = "LIGASD_MAX_CONNECTIONS_PER_UID"
        case maxInFlight = "LIGASD_MAX_IN_FLIGHT"
        case maxFrameSize = "LIGASD_MAX_FRAME_SIZE"
        case handshakeTimeout = "LIGASD_HANDSHAKE_TIMEOUT"
        case idleConnectionTimeout = "LIGASD_IDLE_CONNECTION_TIMEOUT"
        case maxOutputBytes = "LIGASD_MAX_OUTPUT_BYTES"
        case idleExit = "LIGASD_IDLE_EXIT"
        case shutdownGrace = "LIGASD_SHUTDOWN_GRACE"
        case logTarget = "LIGASD_LOG_TARGET"
        case logLevel = "LIGASD_LOG_LEVEL"
    }

    /// Resolves the settings. `overrides` are the command line's, by key.
    public static func resolve(
        overrides: [Key: String] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        configFile: String? = nil
    ) throws -> DaemonConfiguration {
        var settings: [Key: String] = [:]
        if let path = configFile ?? environment["LIGASD_CONFIG"] {
            settings = try ConfigFile.read(path: path)
        }
        for key in Key.allCases { if let value = environment[key.rawValue] { settings[key] = value } }
        settings.merge(overrides) { $1 }
        var configuration = DaemonConfiguration()
        try configuration.apply(settings)
        configuration.apiKey = try CredentialLoading.apiKey(environment: environment) ?? configuration.apiKey
        return configuration
    }

    mutating func apply(_ settings: [Key: String]) throws {
        let parse = SettingParser(settings: settings)
        socketPath = settings[.socket].flatMap { $0.isEmpty ? nil : $0 }
        socketMode = try parse.octal(.socketMode) ?? socketMode
        remote = try parse.url(.remote) ?? remote
        seedRemote = try parse.url(.seedRemote) ?? seedRemote
        apiKey = settings[.apiKey].flatMap(APIKey.init) ?? apiKey
        cacheFile = settings[.cache].map { URL(fileURLWithPath: $0) } ?? cacheFile
        maxCacheAge = try parse.seconds(.maxCacheAge).map { Double($0.components.seconds) } ?? maxCacheAge
        remoteFirstBudget = try parse.seconds(.remoteFirstBudget) ?? remoteFirstBudget
        imageCacheBytes = try parse.count(.imageCacheBytes) ?? imageCacheBytes
        limits.maxConnections = try parse.count(.maxConnections) ?? limits.maxConnections
        limits.maxConnectionsPerUID = try parse.count(.maxConnectionsPerUID) ?? limits.maxConnectionsPerUID
        limits.maxInFlightPerConnection = try parse.count(.maxInFlight) ?? limits.maxInFlightPerConnection
        limits.maxFrameSize = try parse.count(.maxFrameSize, atLeast: 4096) ?? limits.maxFrameSize
        limits.handshakeTimeout = try parse.seconds(.handshakeTimeout) ?? limits.handshakeTimeout
        limits.idleConnectionTimeout = try parse.seconds(.idleConnectionTimeout) ?? limits.idleConnectionTimeout
        limits.maxOutputBytes = try parse.count(.maxOutputBytes) ?? limits.maxOutputBytes
        if let idle = try parse.seconds(.idleExit) { idleExit = idle == .zero ? nil : idle }
        shutdownGrace = try parse.seconds(.shutdownGrace) ?? shutdownGrace
        logTarget = try parse.choice(.logTarget, LogTarget.init(rawValue:), "auto, journal or stderr") ?? logTarget
        logLevel = try parse.choice(.logLevel, Logger.Level.init(rawValue:), "trace, debug, info, notice, warning, error or critical") ?? logLevel
    }
}

/// Typed reading of one setting, failing with a `ConfigurationError` that names it.
struct SettingParser {
    let settings: [DaemonConfiguration.Key: String]

    private func fail(_ key: DaemonConfiguration.Key, _ value: String, _ expected: String) -> ConfigurationError {
        ConfigurationError(key: key.rawValue, value: value, expected: expected)
    }

    func count(_ key: DaemonConfiguration.Key, atLeast minimum: Int = 1) throws -> Int? {
        guard let text = settings[key] else { return nil }
        guard let value = Int(text), value >= minimum else { throw fail(key, text, "a whole number ≥ \(minimum)") }
        return value
    }

    func seconds(_ key: DaemonConfiguration.Key) throws -> Duration? {
        guard let text = settings[key] else { return nil }
        guard let value = Double(text), value >= 0, value < 1e9 else { throw fail(key, text, "seconds (≥ 0)") }
        return .milliseconds(Int64(value * 1000))
    }

    func octal(_ key: DaemonConfiguration.Key) throws -> mode_t? {
        guard let text = settings[key] else { return nil }
        guard let value = mode_t(text, radix: 8), value <= 0o777 else { throw fail(key, text, "an octal mode such as 0660") }
        return value
    }

    func url(_ key: DaemonConfiguration.Key) throws -> URL? {
        guard let text = settings[key], !text.isEmpty else { return nil }
        if text.hasPrefix("/") { return URL(fileURLWithPath: text, isDirectory: true) }
        guard let url = URL(string: text), ["http", "https", "file"].contains(url.scheme?.lowercased() ?? "") else {
            throw fail(key, text, "an http://, https:// or file:// URL, or an absolute path")
        }
        return url
    }

    func choice<T>(_ key: DaemonConfiguration.Key, _ make: (String) -> T?, _ expected: String) throws -> T? {
        guard let text = settings[key] else { return nil }
        guard let value = make(text.lowercased()) else { throw fail(key, text, expected) }
        return value
    }
}
