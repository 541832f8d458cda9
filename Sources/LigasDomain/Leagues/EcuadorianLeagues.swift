import FoundationEssentials

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

extension EcuadorianLeagues {
    /// Serie A and B as FlashLive serves them; the logos are FlashLive's, as the LigasEc app had them.
    public static let atFlashLive = [
        League(
            id: "serie-a", name: "LigaPro Serie A",
            logoURL: URL(string: "https://www.flashscore.com/res/image/data/v3G098ld-veKf2ye0.png")!, dataSource: .flashLive),
        League(
            id: "serie-b", name: "LigaPro Serie B",
            logoURL: URL(string: "https://www.flashscore.com/res/image/data/2g15S2DO-GdicJTVi.png")!, dataSource: .flashLive),
    ]
}

extension League {
    /// The one league a `seed-football-api` source serves (that contract has no league list).
    /// Its logo, if the source has one, is `{base}/logo.png`.
    public static func seed(baseURL: URL) -> League {
        League(
            id: "seed", name: "Seed football API",
            logoURL: baseURL.appendingPathComponent("logo.png"), dataSource: .seedFootballAPI)
    }
}

/// The key of the leagues feed: there is only one.
public struct AllLeagues: Hashable, Sendable {
    public init() {}
}
