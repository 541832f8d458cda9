import ArgumentParser
import FoundationEssentials
import LigasClient
import LigasProtocol

struct LeaguesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "leagues", abstract: "List the leagues.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let policy = options.cachePolicy
        let result = try await options.run { try await $0.leagues(cache: policy) }
        if options.json { return try Printing.json(result) }
        var table = Table("ID", "NAME", "SOURCE")
        for league in result.value { table.add(league.id, league.name, league.dataSource) }
        Printing.table(table, source: result.source)
    }
}

struct TeamsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "teams", abstract: "List the teams of a league.")
    @Argument(help: "The league's id, e.g. serie-a.") var league: String
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (policy, league) = (options.cachePolicy, league)
        let result = try await options.run { try await $0.teams(league: league, cache: policy) }
        if options.json { return try Printing.json(result) }
        var table = Table("ID", "NAME")
        for team in result.value { table.add(team.id, team.name) }
        Printing.table(table, source: result.source)
    }
}

struct PlayersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "players", abstract: "List the squad of a team.")
    @Argument(help: "The team's id, e.g. emelec.") var team: String
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (policy, team) = (options.cachePolicy, team)
        let result = try await options.run { try await $0.players(team: team, cache: policy) }
        if options.json { return try Printing.json(result) }
        var table = Table("#", "NAME", "POSITION", "NATIONALITY", "ID")
        for player in result.value {
            table.add(player.number.map(String.init) ?? "-", player.name, player.position.rawValue, player.nationality ?? "-", player.id)
        }
        Printing.table(table, source: result.source)
    }
}

struct MatchesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matches", abstract: "List a league's played and upcoming matches (dates in local time).")
    @Argument(help: "The league's id, e.g. serie-a.") var league: String
    @Option(help: "Only this team's matches (its id or name).") var team: String?
    @Flag(help: "Only played matches.") var previous = false
    @Flag(help: "Only upcoming matches.") var upcoming = false
    @OptionGroup var options: ClientOptions

    func validate() throws {
        if previous && upcoming { throw ValidationError("--previous and --upcoming exclude each other") }
    }

    func run() async throws {
        let (policy, league, team) = (options.cachePolicy, league, team)
        var result = try await options.run { try await $0.matches(league: league, team: team, cache: policy) }
        if previous { result.value.upcoming = [] }
        if upcoming { result.value.previous = [] }
        if options.json { return try Printing.json(result) }
        var table = Table("DATE", "MATCH", "SCORE", "RESULT")
        for match in result.value.previous {
            let score = match.homeScore.flatMap { home in match.awayScore.map { "\(home)-\($0)" } } ?? "-"
            table.add(
                Printing.localDate(match.date), match.description, score,
                match.winner == "Draw" ? "draw" : "won by \(match.winner)")
        }
        for match in result.value.upcoming { table.add(Printing.localDate(match.date), match.description, "", "upcoming") }
        Printing.table(table, source: result.source)
    }
}

struct StandingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "standings", abstract: "Show a league's table.")
    @Argument(help: "The league's id, e.g. serie-a.") var league: String
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (policy, league) = (options.cachePolicy, league)
        let result = try await options.run { try await $0.standings(league: league, cache: policy) }
        if options.json { return try Printing.json(result) }
        var table = Table("#", "TEAM", "P", "W", "D", "L", "GF", "GA", "GD", "PTS")
        for row in result.value {
            let difference = row.goalsFor - row.goalsAgainst
            table.add(
                "\(row.rank)", row.team.name, "\(row.played)", "\(row.won)", "\(row.drawn)", "\(row.lost)",
                "\(row.goalsFor)", "\(row.goalsAgainst)", difference > 0 ? "+\(difference)" : "\(difference)", "\(row.points)")
        }
        Printing.table(table, source: result.source)
    }
}
