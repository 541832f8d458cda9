import ArgumentParser
import Foundation

/// ligas-bench: speed and memory of a real ligasd over its real socket, printed as
/// `RESULT ligasd ...` lines (scripts/bench puts them beside the peers' figures). With no
/// subcommand, every figure. A subcommand comes first; an unknown option, a misplaced or
/// malformed argument is refused (argument-parser's usage error, exit 64) rather than taken for
/// the whole bench, a quarter of an hour of it.
@main
struct LigasBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ligas-bench",
        abstract: "Measure a real ligasd over its real socket; print RESULT lines.",
        subcommands: [
            Everything.self, FirstReply.self, Unary.self, ThroughputOnly.self, MemoryOnly.self, ColdOnly.self, StreamsOnly.self,
        ],
        defaultSubcommand: Everything.self)
}

/// Which ligasd a bench that starts its own measures.
struct BenchOptions: ParsableArguments {
    @Option(help: "The ligasd to measure (default: the one beside ligas-bench).")
    var ligasd: String?
}

/// The floor under ligasd's cold starts, for the subcommands that time them.
struct ColdFloorOption: ParsableArguments {
    @Option(
        name: .customLong("cold-floor"),
        help: """
            Also time this program's cold starts, the floor under ligasd's: \
            Benchmarks/cold-start-floor/ping-only.c, built under the name ligasd, which the user units start.
            """)
    var path: String?
}

extension LigasBenchCommand {
    struct Everything: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "all",
            abstract: """
                Every figure, ligasd started under systemd-socket-activate (and, for the cold start, \
                under a systemd --user manager too).
                """)
        @OptionGroup var options: BenchOptions
        @Option(name: .customLong("ligas-client"), help: "The ligas-client for the whole-process figure (default: beside ligasd).")
        var ligasClient: String?
        @OptionGroup var coldFloor: ColdFloorOption
        @Flag(help: "Fewer samples.")
        var quick = false

        func run() async throws {
            let bench = try BenchRun(options, ligasClient: ligasClient, coldFloor: coldFloor.path, quick: quick)
            try await bench.keepingLogsOnFailure { try await BenchRun.withLogTarget { try await bench.everything() } }
        }
    }

    struct FirstReply: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "first-reply", abstract: "One cold start on a socket something else holds (scripts/order-symbols).")
        @Argument var socket: String

        func run() throws { try ColdStart.firstReply(socketPath: socket) }
    }

    struct Unary: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Only the round trips, against a running ligasd (to profile it).")
        @Argument var socket: String
        @Argument var count = 2_000

        func validate() throws {
            guard count > 0 else { throw ValidationError("the count must be at least 1") }
        }

        func run() async throws {
            try await Latency.library(socketPath: socket, count: count)
            try Latency.blocking(socketPath: socket, count: count)
        }
    }

    struct ThroughputOnly: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "throughput", abstract: "Only the throughput, against a running ligasd.")
        @Argument var socket: String
        @Argument var clients: Int
        @Argument var seconds = 3

        func validate() throws {
            guard clients > 0, seconds > 0 else { throw ValidationError("clients and seconds must be at least 1") }
        }

        func run() async throws {
            let library = try await Throughput.library(socketPath: socket, clients: clients, duration: .seconds(seconds))
            Throughput.report("throughput_teams", clients: clients, library)
            let blocking = try Throughput.blocking(socketPath: socket, clients: clients, duration: .seconds(seconds))
            Throughput.report("throughput_teams_blocking_clients", clients: clients, blocking)
        }
    }

    struct MemoryOnly: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "memory", abstract: "Only the idle RSS, at start and warm, with the warm RSS by mapping (ligasd started as for every figure).")
        @OptionGroup var options: BenchOptions

        func run() async throws {
            let bench = try BenchRun(options)
            try await bench.keepingLogsOnFailure { try await bench.memoryOnly() }
        }
    }

    struct ColdOnly: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cold", abstract: "Only the cold starts, socket-activated and under systemd --user (and the floor's, with --cold-floor).")
        @Argument var runs = 20
        @OptionGroup var options: BenchOptions
        @OptionGroup var coldFloor: ColdFloorOption

        func validate() throws {
            guard runs > 0 else { throw ValidationError("runs must be at least 1") }
        }

        func run() async throws {
            let bench = try BenchRun(options, coldFloor: coldFloor.path)
            try await bench.keepingLogsOnFailure { try await BenchRun.withLogTarget { try await bench.coldStarts(runs: runs) } }
        }
    }

    struct StreamsOnly: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "streams",
            abstract: """
                Only streams of the 20 (or 1) MiB logo through LigasClient, again and again, from a ligasd of \
                its own logging as in the whole bench (to profile both sides: the daemon's pid is printed first).
                """)
        @Argument var seconds = 10
        @Argument(help: "20 or 1.") var mebibytes = 20
        @OptionGroup var options: BenchOptions

        func validate() throws {
            guard [1, 20].contains(mebibytes) else { throw ValidationError("the bench's logos are of 1 and 20 MiB") }
            guard seconds >= 0 else { throw ValidationError("seconds cannot be negative") }
        }

        func run() async throws {
            let bench = try BenchRun(options)
            try await bench.keepingLogsOnFailure {
                try await BenchRun.withLogTarget { try await bench.profileStreams(seconds: seconds, mebibytes: mebibytes) }
            }
        }
    }
}
