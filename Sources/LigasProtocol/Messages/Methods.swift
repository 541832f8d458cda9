/// The methods of the protocol: the one table. Adding a method means a type here (and in
/// `all`), the engine call that answers it (the daemon's `EngineMethods`) and its
/// `LigasClient` function; nothing else.
public enum Methods {
    /// Every method, in the order `describe` lists them.
    public static let all: [any RPCMethod.Type] = [
        Ping.self, Leagues.self, Teams.self, Players.self, Matches.self, Standings.self, Image.self, Status.self,
        Describe.self,
    ]

    /// The method with this wire name, if there is one.
    public static func named(_ name: String) -> (any RPCMethod.Type)? {
        all.first { $0.name == name }
    }

    public enum Ping: RPCMethod {
        public typealias Result = PingResult
        public static let name = "ping"
        public static let summary = "Liveness check; answers an empty map."
    }

    public enum Leagues: RPCMethod {
        public typealias Result = LeaguesResult
        public static let name = "leagues"
        public static let summary = "All known leagues."
    }

    public enum Teams: RPCMethod {
        public typealias Arguments = TeamsArguments
        public typealias Result = TeamsResult
        public static let name = "teams"
        public static let summary = "Teams of a league."
    }

    public enum Players: RPCMethod {
        public typealias Arguments = PlayersArguments
        public typealias Result = PlayersResult
        public static let name = "players"
        public static let summary = "Squad of a team."
    }

    public enum Matches: RPCMethod {
        public typealias Arguments = MatchesArguments
        public typealias Result = MatchesResult
        public static let name = "matches"
        public static let summary = "Previous and upcoming matches of a league, optionally of one team."
    }

    public enum Standings: RPCMethod {
        public typealias Arguments = StandingsArguments
        public typealias Result = StandingsResult
        public static let name = "standings"
        public static let summary = "The table of a league: rank, team, played, won, drawn, lost, goals for and against, points."
    }

    public enum Image: RPCMethod {
        public typealias Arguments = ImageArguments
        public typealias Result = StreamHeader
        public static let name = "image"
        public static let summary = "Streams a logo or photo as raw chunks, then a streamEnd with SHA-256."
        public static let streams = true
    }

    public enum Status: RPCMethod {
        public typealias Result = DaemonStatus
        public static let name = "status"
        public static let summary = "Daemon counters."
    }

    public enum Describe: RPCMethod {
        public typealias Result = InterfaceDescription
        public static let name = "describe"
        public static let summary = "This description."
    }
}

/// How the daemon may use its cache for a data request.
public enum CachePolicy: String, Codable, Sendable, CaseIterable, TextEnumeration {
    /// Fresh cache, else remote (`matches`: remote first for a short budget, then fresh cache).
    /// Stale data is never served (PROTOCOL.md, cache policy).
    case `default`
    /// Go to the remote source even if the cache is fresh.
    case refresh
    /// Never contact the remote source; `noCache` if nothing fresh is cached.
    case offline
}
