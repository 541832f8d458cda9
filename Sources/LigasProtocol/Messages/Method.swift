/// Callable methods, by their stable wire name. (`hello` is not a method: it is the
/// handshake frame kind.)
public enum Method: String, Codable, Sendable, CaseIterable {
    case ping
    case leagues
    case teams
    case players
    case matches
    case image
    case status
    case describe
}

/// How the daemon may use its cache for a data request.
public enum CachePolicy: String, Codable, Sendable, CaseIterable {
    /// Fresh cache, else remote, else stale cache.
    case `default`
    /// Go to the remote source even if the cache is fresh.
    case refresh
    /// Never contact the remote source; `noCache` if nothing is cached.
    case offline
}
