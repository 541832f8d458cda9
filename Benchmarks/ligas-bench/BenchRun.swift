import Foundation
import LigasClient
import LigasSampleDataLocation
import LigasTestSupport

/// One bench run's context (the binaries it measures, its samples, the ligas-rest tree its ligasd
/// serves) and its phases, which the subcommands of `LigasBenchCommand` run.
struct BenchRun {
    let ligasd: String
    /// For the whole-process figure.
    let ligasClient: String
    let coldFloor: String?
    let quick: Bool
    let workspace = TemporaryDirectory()
    let fixture: BenchFixture

    var unaryCount: Int { quick ? 2_000 : 20_000 }
    var throughputTime: Duration { quick ? .seconds(1) : .seconds(3) }

    /// `ligasClient` beside ligasd unless given; `coldFloor`: also that program's cold starts;
    /// `quick`: fewer samples (of the whole bench).
    init(_ options: BenchOptions, ligasClient: String? = nil, coldFloor: String? = nil, quick: Bool = false) throws {
        ligasd = options.ligasd
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("ligasd").path
        self.ligasClient = ligasClient
            ?? URL(fileURLWithPath: ligasd).deletingLastPathComponent().appendingPathComponent("ligas-client").path
        self.coldFloor = coldFloor
        self.quick = quick
        fixture = try BenchFixture.create(in: workspace.url, sampleData: BundledSampleData.baseURL)
        Report.progress("ligasd \(ligasd); data \(fixture.root.path)")
    }

    /// Runs `body`; when it fails, the workspace (ligasd's log, ligas-client's, the user
    /// manager's, which the error may name) is kept, and its path said.
    func keepingLogsOnFailure(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            workspace.keep()
            Report.progress("failed; the logs are in \(workspace.url.path)")
            throw error
        }
    }

    /// RSS idle after the first reply, and idle again after a warm-up: the teams feed, then both big
    /// logos (first downloads come from the remote). Returns the logos' URLs. Idle is a second after
    /// the last client left, both times: ligasd gives memory back then (`QuietMemoryRelease`); the
    /// figure at the first reply itself, before that, is printed too.
    func idleMemory(of daemon: BenchDaemon) async throws -> [String: URL] {
        let atFirstReply = ProcessMemory.residentKiB(of: daemon.pid) ?? 0
        try await Task.sleep(for: .seconds(1))
        let idleAtStart = ProcessMemory.residentKiB(of: daemon.pid) ?? 0
        let warm = try await LigasClient.connect(socketPath: daemon.socketPath, agent: "ligas-bench")
        let teams = try await warm.teams(league: BenchFixture.league).value
        var logos: [String: URL] = [:]
        for (id, _) in BenchFixture.imageTeams {
            guard let url = teams.first(where: { $0.id == id })?.logoURL else { throw BlockingClient.Failure(description: "no team \(id)") }
            for try await _ in try await warm.image(.url(url)) {}
            logos[id] = url
        }
        warm.close()
        try await Task.sleep(for: .seconds(1))
        let idleWarm = ProcessMemory.residentKiB(of: daemon.pid) ?? 0
        Report.result("memory_idle", [
            "rss_start_mib": ProcessMemory.mebibytes(idleAtStart), "rss_warm_mib": ProcessMemory.mebibytes(idleWarm),
            "rss_first_reply_mib": ProcessMemory.mebibytes(atFirstReply),
        ])
        return logos
    }

    /// `ligas-bench memory`: only the idle figures (`memory_idle`), from a ligasd of its own.
    func memoryOnly() async throws {
        let daemon = try BenchDaemon(ligasd: ligasd, remote: fixture.root.absoluteString, directory: workspace.url, name: "ligasd")
        do {
            _ = try daemon.firstReply()
            _ = try await idleMemory(of: daemon)
            // Where the warm RSS is, by mapping: the biggest ones, for whoever profiles it.
            // (Read to the end: procfs files have no size, and `String(contentsOfFile:)` stops early.)
            if let smaps = FileHandle(forReadingAtPath: "/proc/\(daemon.pid)/smaps").map({ String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) }) {
                var name = "", sizes: [String: Int] = [:]
                for line in smaps.split(separator: "\n") {
                    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                    if fields.first?.contains("-") == true, fields.count >= 5 {
                        name = (fields.count > 5 ? String(fields[5]).split(separator: "/").last.map(String.init) ?? "" : "[anon]") + " " + fields[1]
                    } else if fields.first == "Rss:", fields.count > 1, let kib = Int(fields[1]) {
                        sizes[name, default: 0] += kib
                    }
                }
                for (mapping, kib) in sizes.sorted(by: { $0.value > $1.value }).prefix(16) where kib >= 100 {
                    Report.progress("warm RSS \(ProcessMemory.mebibytes(kib)) MiB  \(mapping)")
                }
            }
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    /// Every figure of one running ligasd, started under systemd-socket-activate.
    func runningDaemon() async throws {
        let daemon = try BenchDaemon(ligasd: ligasd, remote: fixture.root.absoluteString, directory: workspace.url, name: "ligasd")
        Report.result("log_target", ["target": daemon.logTarget, "level": "info"])
        do {
            _ = try daemon.firstReply()
            let logos = try await idleMemory(of: daemon)

            Report.progress("ligas-client processes")
            try ClientProcess.run(
                client: ligasClient, socketPath: daemon.socketPath, league: BenchFixture.league, runs: quick ? 50 : 200,
                log: workspace.url.appendingPathComponent("ligas-client.log"))

            Report.progress("unary latency")
            try await Latency.library(socketPath: daemon.socketPath, count: unaryCount)
            try Latency.blocking(socketPath: daemon.socketPath, count: unaryCount)

            Report.progress("throughput")
            let sampler = PeakSampler.memory(of: daemon.pid)
            for clients in [1, 16, 64] {
                let library = try await Throughput.library(socketPath: daemon.socketPath, clients: clients, duration: throughputTime)
                Throughput.report("throughput_teams", clients: clients, library)
                let blocking = try Throughput.blocking(socketPath: daemon.socketPath, clients: clients, duration: throughputTime)
                Throughput.report("throughput_teams_blocking_clients", clients: clients, blocking)
            }
            Report.result("memory_under_load", ["rss_peak_mib": ProcessMemory.mebibytes(sampler.stop()), "clients": 64])

            Report.progress("CPU per request")
            let journald = daemon.logTarget == "journal" ? CPUPerRequest.journaldPID() : nil
            try await CPUPerRequest.measure("cpu_per_request", daemonPID: daemon.pid, journaldPID: journald, extra: ["clients": 16]) {
                try await Throughput.library(socketPath: daemon.socketPath, clients: 16, duration: throughputTime).requests
            }
            try await CPUPerRequest.measure("cpu_per_request_sequential", daemonPID: daemon.pid, journaldPID: journald, extra: ["clients": 1]) {
                try Throughput.blocking(socketPath: daemon.socketPath, clients: 1, duration: throughputTime).requests
            }

            Report.progress("1,000 connections")
            try await ManyConnections.run(socketPath: daemon.socketPath, daemonPID: daemon.pid, connections: 1000, requestsEach: 100)

            Report.progress("streaming")
            for (id, bytes) in BenchFixture.imageTeams {
                let repetitions = max(2, (quick ? 100 : 400) / (bytes >> 20))
                let library = try await Streaming.library(socketPath: daemon.socketPath, url: logos[id]!, repetitions: repetitions)
                Report.result("stream_\(bytes >> 20)mib", ["n": repetitions, "mib_per_s": Report.fixed(library.mibPerSecond)])
                let blocking = try Streaming.blocking(socketPath: daemon.socketPath, url: logos[id]!, repetitions: repetitions)
                Report.result("stream_\(bytes >> 20)mib_blocking_client", ["n": repetitions, "mib_per_s": Report.fixed(blocking.mibPerSecond)])
            }

            Report.progress("slow reader")
            try SlowReader.run(
                socketPath: daemon.socketPath, daemonPID: daemon.pid, url: logos["bench-20mib"]!,
                totalBytes: quick ? 40 << 20 : 100 << 20, bytesPerSecond: 16 << 20)
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    /// `ligas-bench streams SECONDS MIB`: only the stream of the MIB MiB logo (20 or 1), through
    /// LigasClient, again and again (to profile both sides: the daemon's pid is printed first).
    func profileStreams(seconds: Int, mebibytes: Int) async throws {
        let daemon = try BenchDaemon(ligasd: ligasd, remote: fixture.root.absoluteString, directory: workspace.url, name: "ligasd")
        var total = 0
        do {
            _ = try daemon.firstReply()
            let client = try await LigasClient.connect(socketPath: daemon.socketPath, agent: "ligas-bench")
            let teams = try await client.teams(league: BenchFixture.league).value
            guard let url = teams.first(where: { $0.id == "bench-\(mebibytes)mib" })?.logoURL else {
                throw BlockingClient.Failure(description: "no \(mebibytes) MiB logo (the bench has 1 and 20)")
            }
            for try await _ in try await client.image(.url(url)) {}
            client.close()
            Report.line("DAEMON_PID \(daemon.pid)")
            // Over the whole loop, on one connection, each download timed: for A/B runs, the rate is
            // steadier than the 20 downloads below, and the percentiles steadier still (a busy host
            // moves the mean and the tail, its p10 seldom).
            let looping = try await LigasClient.connect(socketPath: daemon.socketPath, agent: "ligas-bench")
            var downloads = Samples(capacity: seconds * 2_000)
            let start = ContinuousClock.now
            let end = start + .seconds(seconds)
            while ContinuousClock.now < end {
                let began = ContinuousClock.now
                total += try await Streaming.download(url, from: looping)
                downloads.add(since: began)
            }
            looping.close()
            if total > 0 {
                Report.line("\(mebibytes) MiB: LigasClient \(Report.fixed(Streaming.mibPerSecond(total, since: start))) MiB/s over \(total >> 20) MiB")
                let percentiles = [0.1, 0.5, 0.9, 0.99].map { "p\(Int($0 * 100)) \(Report.fixed(downloads.percentile($0), 0))" }
                Report.line("\(mebibytes) MiB: per download, µs: \(percentiles.joined(separator: ", ")), mean \(Report.fixed(downloads.mean, 0)) (n=\(downloads.values.count))")
            }
            let library = try await Streaming.library(socketPath: daemon.socketPath, url: url, repetitions: 20)
            let blocking = try Streaming.blocking(socketPath: daemon.socketPath, url: url, repetitions: 20)
            Report.line("\(mebibytes) MiB: LigasClient \(Report.fixed(library.mibPerSecond)) MiB/s, blocking client \(Report.fixed(blocking.mibPerSecond)) MiB/s")
        } catch {
            await daemon.stop()
            throw error
        }
        Report.line("streamed \(total >> 20) MiB")
        await daemon.stop()
    }

    /// The cold starts, socket-activated and under `systemd --user`, each followed by the floor under
    /// it when `--cold-floor` names one.
    func coldStarts(runs: Int) async throws {
        let remote = fixture.root.absoluteString
        try await ColdStart.socketActivate(ligasd: ligasd, remote: remote, directory: workspace.url, runs: runs)
        if let coldFloor {
            try await ColdStart.socketActivate(
                ligasd: coldFloor, remote: remote, directory: workspace.url, runs: runs, result: "cold_start_floor_socket_activate")
        }
        Report.progress("cold start under systemd --user")
        try await ColdStart.userManager(ligasd: ligasd, remote: remote, directory: workspace.url, runs: runs)
        if let coldFloor {
            try await ColdStart.userManager(
                ligasd: coldFloor, remote: remote, directory: workspace.url, runs: runs, result: "cold_start_floor_user_manager")
        }
    }

    /// The journal is ligasd's default log target, and what users run: the bench logs there too,
    /// starting a journald if none runs (LIGASD_LOG_TARGET=stderr measures the other way).
    static func withLogTarget(_ body: () async throws -> Void) async throws {
        if BenchDaemon.defaultLogTarget == "journal" {
            try await Journald.withRunning { try await body() }
        } else {
            try await body()
        }
    }

    /// Every figure, in order.
    func everything() async throws {
        try await runningDaemon()
        Report.progress("single flight")
        try await SingleFlight.run(ligasd: ligasd, fixture: fixture, directory: workspace.url, clients: 100)

        Report.progress("cold start")
        try await coldStarts(runs: quick ? 5 : 20)
    }
}
