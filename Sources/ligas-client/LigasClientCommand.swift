import ArgumentParser
import LigasProtocol

/// ligas-client: a thin command-line client for ligasd.
///
/// The common options (`--socket`, `--json`, `--refresh`, `--offline`, `--timeout`) are declared
/// here and in every subcommand as the same `@OptionGroup`: the root's parser takes them wherever
/// they stand, before or after the subcommand (`ligas-client --socket S ping` and
/// `ligas-client ping --socket S`), and argument-parser hands the subcommand's group the value
/// the root parsed, so both spellings mean the same and each subcommand's help still lists them.
@main
struct LigasClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ligas-client",
        abstract: "Ask ligasd for Ecuadorian football data.",
        discussion: ExitStatus.documentation,
        version: ReleaseVersion.current,
        subcommands: [
            LeaguesCommand.self, TeamsCommand.self, PlayersCommand.self, MatchesCommand.self, StandingsCommand.self,
            ImageCommand.self, StatusCommand.self, DescribeCommand.self, PingCommand.self,
        ])

    @OptionGroup var options: ClientOptions
}
