/// Where a data result came from.
public enum ResultSource: String, Codable, Sendable, CaseIterable, TextEnumeration {
    case cache
    case remote
    /// The daemon's built-in bootstrap list (leagues), not yet cached.
    case builtIn
}

/// Result of the data methods: `{"source": "cache"|"remote"|"builtIn", "value": ...}`.
public struct Sourced<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var source: ResultSource
    public var value: Value

    public init(source: ResultSource, value: Value) {
        self.source = source
        self.value = value
    }
}

public typealias LeaguesResult = Sourced<[League]>
public typealias TeamsResult = Sourced<[Team]>
public typealias PlayersResult = Sourced<[Player]>
public typealias MatchesResult = Sourced<Matches>

/// Result of `ping`: an empty map (liveness and round-trip time only). It encodes nothing,
/// which the encoder writes as an empty map; decoding insists on a map.
public struct PingResult: Codable, Sendable, Hashable {
    public init() {}

    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: CBORKey.self)
    }
}

/// Result of `status`: counters since the daemon started.
public struct DaemonStatus: Codable, Sendable, Hashable {
    /// Daemon version, e.g. "0.3.0".
    public var version: String
    public var protocolVersion: UInt8
    public var uptimeSeconds: UInt64
    public var openConnections: UInt64
    public var inFlightRequests: UInt64
    public var requestsServed: UInt64
    public var cacheHits: UInt64
    public var cacheMisses: UInt64
    public var remoteFailures: UInt64
    /// Each metered provider's monthly requests; absent when none is configured.
    public var quota: [ProviderQuota]?

    public init(
        version: String, protocolVersion: UInt8 = ProtocolVersion.current, uptimeSeconds: UInt64,
        openConnections: UInt64, inFlightRequests: UInt64, requestsServed: UInt64,
        cacheHits: UInt64, cacheMisses: UInt64, remoteFailures: UInt64, quota: [ProviderQuota]? = nil
    ) {
        self.version = version
        self.protocolVersion = protocolVersion
        self.uptimeSeconds = uptimeSeconds
        self.openConnections = openConnections
        self.inFlightRequests = inFlightRequests
        self.requestsServed = requestsServed
        self.cacheHits = cacheHits
        self.cacheMisses = cacheMisses
        self.remoteFailures = remoteFailures
        self.quota = quota
    }
}
