import ArgumentParser

/// ligas-client: a thin command-line client for ligasd.
@main
struct LigasClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ligas-client",
        abstract: "Ask ligasd for Ecuadorian football data.",
        discussion: ExitStatus.documentation,
        subcommands: [
            LeaguesCommand.self, TeamsCommand.self, PlayersCommand.self, MatchesCommand.self,
            ImageCommand.self, StatusCommand.self, DescribeCommand.self, PingCommand.self,
        ])
}
