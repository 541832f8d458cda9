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
    @Option(name: .shortAndLong, help: "Write the image to this file.") var output: String?
    @OptionGroup var options: ClientOptions

    func validate() throws {
        let given = [url != nil, league != nil, team != nil, player != nil].filter { $0 }.count
        guard given == 1 else { throw ValidationError("name exactly one image: a URL, --league, --team or --player") }
        if let url, URL(string: url)?.scheme == nil { throw ValidationError("not a URL: \(url)") }
        if output == nil, Terminal.standardOutput.isTerminal {
            throw ValidationError("refusing to write image bytes to a terminal: use -o FILE or a pipe")
        }
    }

    var which: ImageArguments {
        if let url, let parsed = URL(string: url) { return .url(parsed) }
        if let league { return .league(league) }
        if let team { return .team(team) }
        return .player(player ?? "")
    }

    func run() async throws {
        let sink = try ImageSink(path: output)
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
        try sink.commit()
        if options.json, output != nil { try Printing.json(header) }
    }
}

/// Where the bytes go: a temporary file renamed into place only when complete, or stdout.
final class ImageSink: Sendable {
    private let path: String?
    private let temporary: String?
    private let fd: Int32
    private let closed = Atomic(false)

    init(path: String?) throws {
        self.path = path
        guard let path else {
            temporary = nil
            fd = STDOUT_FILENO
            return
        }
        let temporary = path + ".part"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw ValidationError("cannot write \(path)") }
        self.temporary = temporary
        self.fd = fd
    }

    func write(_ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw ValidationError("cannot write \(path ?? "stdout"): \(String(cString: strerror(errno)))") }
                offset += written
            }
        }
    }

    func commit() throws {
        guard let path, let temporary else { return }
        closed.store(true, ordering: .relaxed)
        guard close(fd) == 0, rename(temporary, path) == 0 else { throw ValidationError("cannot write \(path)") }
    }

    deinit {
        guard let temporary else { return }
        if !closed.load(ordering: .relaxed) { close(fd) }
        unlink(temporary)  // a cancelled or failed download leaves nothing behind
    }
}

/// A progress bar on stderr, only when stderr is a terminal.
final class ProgressBar: @unchecked Sendable {
    private let total: UInt64?
    private var done: UInt64 = 0
    private let enabled = Terminal.standardError.isTerminal

    init(total: UInt64?) { self.total = total }

    func advance(by count: Int) {
        done += UInt64(count)
        guard enabled else { return }
        if let total, total > 0 {
            let filled = Int(min(done, total) * 30 / total)
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
            Terminal.standardError.write("\r[\(bar)] \(done * 100 / total)% \(done / 1024) KiB")
        } else {
            Terminal.standardError.write("\r\(done / 1024) KiB")
        }
    }

    func finish() {
        if enabled { Terminal.standardError.write("\n") }
    }
}
