import Foundation

/// The built-in bootstrap list: the leagues ligasd knows without asking anyone.
public enum EcuadorianLeagues {
    /// Logos are paths relative to the data source's base URL, as in the REST contract.
    public static func bootstrap(ligasBaseURL base: URL) -> [League] {
        [
            League(
                id: "serie-a", name: "LigaPro Serie A",
                logoURL: base.appendingPathComponent("images/leagues/serie-a.png"),
                dataSource: .ligasREST
            ),
            League(
                id: "serie-b", name: "LigaPro Serie B",
                logoURL: base.appendingPathComponent("images/leagues/serie-b.png"),
                dataSource: .ligasREST
            ),
        ]
    }
}

/// The key of the leagues feed: there is only one.
public struct AllLeagues: Hashable, Sendable {
    public init() {}
}
