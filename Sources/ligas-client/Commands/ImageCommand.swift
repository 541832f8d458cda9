import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import LigasClient
import LigasProtocol
import Synchronization

struct ImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Download a logo or photo.",
        discussion: "Writes to -o FILE, or to stdout when it is a pipe; never to a terminal. Ctrl-C cancels the download.")

    @Argument(help: "An image URL from ligasd's own data (a logo or photo URL it listed).") var url: String?
    @Option(help: "The logo of this league.") var league: String?
    @Option(help: "The logo of this team.") var team: String?
    @Option(help: "The photo of this player.") var player: String?
    @Option(name: .shortAndLong, help: "Write the image to this file (- for stdout), replaced only once the download is complete and checked (a device or FIFO is written in place).") var output: String?
    @OptionGroup var options: ClientOptions

    func validate() throws {
        let given = [url != nil, league != nil, team != nil, player != nil].filter { $0 }.count
        guard given == 1 else { throw ValidationError("name exactly one image: a URL, --league, --team or --player") }
        if let url, URL(string: url)?.scheme == nil { throw ValidationError("not a URL: \(url)") }
        if output == "" { throw ValidationError("-o takes a file name (or - for stdout)") }
        if outputFile == nil, Terminal.standardOutput.isTerminal {
            throw ValidationError("refusing to write image bytes to a terminal: use -o FILE or a pipe")
        }
    }

    /// The file `-o` names; nil for stdout (no `-o`, or `-o -`).
    var outputFile: String? { output == "-" ? nil : output }

    var which: ImageArguments {
        if let url, let parsed = URL(string: url) { return .url(parsed) }
        if let league { return .league(league) }
        if let team { return .team(team) }
        return .player(player ?? "")
    }

    func run() async throws {
        let sink = try ClientOptions.reporting { try ImageSink(path: outputFile) }
        let (which, policy) = (which, options.cachePolicy)
        // Ctrl-C cancels this closure (options.run): the download stops, the daemon is told, and
        // the sink's temporary file goes away.
        let header = try await options.run { client in
            let download = try await client.image(which, cache: policy)
            let progress = ProgressBar(total: download.header.totalSize)
            for try await chunk in download {
                try sink.write(chunk)
                progress.advance(by: chunk.count)
            }
            progress.finish()
            return download.header
        }
        try ClientOptions.reporting { try sink.commit() }
        if options.json, !sink.isStandardOutput { try Printing.json(header) }
    }
}
