/// Every way a load can fail, as the specs name them. Callers (the wire protocol, the CLI) map
/// these one-to-one onto their own error codes.
public enum LigasError: Error, Hashable, Sendable {
    /// The remote says the thing does not exist (HTTP 404), or the data source cannot provide it.
    case notFound(String)
    /// The remote could not be reached: DNS, refused connection, timeout, interrupted transfer.
    case connectivity(String)
    /// The remote answered, but not with what the contract promises.
    case invalidData(String)
    /// `offline` policy and nothing valid in the cache. (Without that policy, a failed remote
    /// with nothing cached is the remote's own error: it says what happened.)
    case noCache
    /// A provider's requests are spent for now: this month's budget is used up, or the provider
    /// itself refused (HTTP 429). Nothing was asked of it.
    case quotaExceeded(String)
}

extension LigasError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notFound(let why): "not found: \(why)"
        case .connectivity(let why): "no connectivity: \(why)"
        case .invalidData(let why): "invalid data: \(why)"
        case .noCache: "offline and nothing cached"
        case .quotaExceeded(let why): "request quota exceeded: \(why)"
        }
    }
}
