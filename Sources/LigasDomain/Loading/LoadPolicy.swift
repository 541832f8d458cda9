/// How a caller wants a single load to treat the cache and the network.
public enum LoadPolicy: String, Hashable, Sendable, CaseIterable {
    /// The use case's own behaviour: cache first for teams, players and images; remote first for matches.
    case `default`
    /// Go to the remote first and update the cache; a remote failure is reported, not hidden.
    case refresh
    /// Cache only; never touch the network.
    case offline
}
