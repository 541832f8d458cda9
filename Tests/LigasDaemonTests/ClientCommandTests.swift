import Foundation
import Glibc
import LigasSampleDataLocation
import LigasTestSupport
import Testing

/// The real `ligas-client` binary against the real ligasd: output, `--json` shapes, exit codes,
/// image files and pipes, terminals (through `script`, which gives it a pty), and Ctrl-C.
@Suite("ligas-client command line")
struct ClientCommandTests {
    static let sample = BundledSampleData.baseURL
    static var emelecLogo: Data {
        get throws { try Data(contentsOf: sample.appendingPathComponent("images/teams/emelec.png")) }
    }

    /// Runs the tests against a daemon serving the sample data over a loopback HTTP remote.
    static func withDaemon(_ body: (RunningDaemon) async throws -> Void) async throws {
        let server = try await LoopbackHTTPServer.start { _ in .file(root: sample) }
        let daemon = try await RunningDaemon(remote: server.baseURL)
        let outcome = await asyncResult { try await body(daemon) }
        _ = await daemon.stop()
        try await server.shutdown()
        try outcome.get()
    }

    // MARK: - Data and daemon commands

    @Test("leagues, teams, players, matches, standings, status, describe and ping exit 0 with readable output")
    func commandsAsTables() async throws {
        try await Self.withDaemon { daemon in
            let leagues = try await CommandRun.client(["leagues"], socket: daemon.socketPath)
            #expect(leagues.status == 0, "\(leagues.errorOutput)")
            #expect(leagues.lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["ID", "NAME", "SOURCE"])
            #expect(leagues.lines.contains { $0.hasPrefix("serie-a ") } && leagues.lines.contains { $0.hasPrefix("serie-b ") })
            #expect(!leagues.text.contains("\u{1B}"), "no colour on a pipe")
            #expect(leagues.errorOutput.contains("(2 from"))

            let teams = try await CommandRun.client(["teams", "serie-a"], socket: daemon.socketPath)
            #expect(teams.status == 0, "\(teams.errorOutput)")
            #expect(teams.lines.count == 1 + 16)
            #expect(teams.lines.contains { $0.split(separator: " ", omittingEmptySubsequences: true) == ["emelec", "Emelec"] })
            #expect(teams.errorOutput.contains("(16 from remote)"))

            let players = try await CommandRun.client(["players", "emelec"], socket: daemon.socketPath)
            #expect(players.status == 0, "\(players.errorOutput)")
            #expect(players.lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["#", "NAME", "POSITION", "NATIONALITY", "ID"])
            #expect(players.lines.count == 1 + 23)

            let matches = try await CommandRun.client(["matches", "serie-a", "--team", "emelec", "--previous"], socket: daemon.socketPath)
            #expect(matches.status == 0, "\(matches.errorOutput)")
            #expect(matches.lines.count == 1 + 4)
            #expect(matches.lines.dropFirst().allSatisfy { $0.contains("Emelec") && ($0.hasSuffix("draw") || $0.contains("won by ")) })
            #expect(matches.lines.dropFirst().allSatisfy { $0.contains(#/\s\d+-\d+\s/#) }, "every played match shows its score")
            #expect(!matches.text.contains("upcoming"))

            let standings = try await CommandRun.client(["standings", "serie-a"], socket: daemon.socketPath)
            #expect(standings.status == 0, "\(standings.errorOutput)")
            #expect(standings.lines.first?.split(separator: " ", omittingEmptySubsequences: true)
                == ["#", "TEAM", "P", "W", "D", "L", "GF", "GA", "GD", "PTS"])
            #expect(standings.lines.count == 1 + 16)
            #expect(standings.lines.dropFirst().first?.hasPrefix("1 ") == true)

            let status = try await CommandRun.client(["status"], socket: daemon.socketPath)
            #expect(status.status == 0, "\(status.errorOutput)")
            #expect(status.lines.contains { $0.hasPrefix("version ") })
            let served = status.lines.first { $0.hasPrefix("requests served") }?.split(separator: " ").last.flatMap { Int($0) }
            #expect((served ?? 0) >= 4)

            let describe = try await CommandRun.client(["describe"], socket: daemon.socketPath)
            #expect(describe.status == 0, "\(describe.errorOutput)")
            let interface = try #require(try describe.jsonObject())
            #expect((interface["methods"] as? [Any])?.isEmpty == false)

            let ping = try await CommandRun.client(["ping"], socket: daemon.socketPath)
            #expect(ping.status == 0, "\(ping.errorOutput)")
            #expect(ping.text.hasPrefix("pong in ") && ping.text.hasSuffix(" µs\n"))
        }
    }

    @Test("--json prints the documented shapes: {source, value} for data, the status and ping fields")
    func commandsAsJSON() async throws {
        try await Self.withDaemon { daemon in
            let leagues = try #require(try await CommandRun.client(["leagues", "--json"], socket: daemon.socketPath).jsonObject())
            #expect(leagues["source"] is String)
            let leagueValues = try #require(leagues["value"] as? [[String: Any]])
            #expect(leagueValues.compactMap { $0["id"] as? String } == ["serie-a", "serie-b"])
            #expect(leagueValues.allSatisfy { $0["name"] is String && $0["logoURL"] is String && $0["dataSource"] is String })

            let teams = try #require(try await CommandRun.client(["teams", "serie-a", "--json"], socket: daemon.socketPath).jsonObject())
            #expect(teams["source"] as? String == "remote")
            let teamValues = try #require(teams["value"] as? [[String: Any]])
            #expect(teamValues.count == 16)
            #expect(teamValues.contains { $0["id"] as? String == "emelec" && $0["name"] as? String == "Emelec" })
            let cached = try #require(try await CommandRun.client(["teams", "serie-a", "--json"], socket: daemon.socketPath).jsonObject())
            #expect(cached["source"] as? String == "cache")

            let players = try #require(try await CommandRun.client(["players", "emelec", "--json"], socket: daemon.socketPath).jsonObject())
            let playerValues = try #require(players["value"] as? [[String: Any]])
            #expect(playerValues.count == 23)
            #expect(playerValues.allSatisfy { ["coach", "goalkeeper", "defender", "midfielder", "forward"].contains($0["position"] as? String ?? "") })

            let matches = try #require(
                try await CommandRun.client(["matches", "serie-a", "--team", "emelec", "--previous", "--json"], socket: daemon.socketPath).jsonObject())
            #expect(matches["source"] is String)
            let matchValue = try #require(matches["value"] as? [String: Any])
            let previous = try #require(matchValue["previous"] as? [[String: Any]])
            #expect(previous.count == 4)
            #expect((matchValue["upcoming"] as? [Any])?.isEmpty == true)
            // Dates in ISO 8601 UTC.
            #expect(previous.allSatisfy { ($0["date"] as? String).flatMap { try? Date.ISO8601FormatStyle().parse($0) } != nil })
            #expect(previous.allSatisfy { $0["homeScore"] is Int && $0["awayScore"] is Int })

            let standings = try #require(try await CommandRun.client(["standings", "serie-a", "--json"], socket: daemon.socketPath).jsonObject())
            #expect(standings["source"] as? String == "remote")
            let rows = try #require(standings["value"] as? [[String: Any]])
            #expect(rows.compactMap { $0["rank"] as? Int } == Array(1...16))
            let points = rows.compactMap { $0["points"] as? Int }
            #expect(points == points.sorted(by: >), "leader first")
            #expect(rows.allSatisfy { row in
                ["played", "won", "drawn", "lost", "goalsFor", "goalsAgainst"].allSatisfy { row[$0] is Int }
                    && (row["team"] as? [String: Any])?["id"] is String
            })
            let played = rows.compactMap { row in (row["won"] as? Int).flatMap { won in (row["drawn"] as? Int).map { won + $0 } } }
            #expect(zip(played, rows).allSatisfy { $0 + (($1["lost"] as? Int) ?? 0) == $1["played"] as? Int })

            let status = try #require(try await CommandRun.client(["status", "--json"], socket: daemon.socketPath).jsonObject())
            #expect(status["version"] is String)
            #expect((status["requestsServed"] as? Int ?? 0) >= 5)
            #expect(status["quota"] == nil, "no metered provider: no quota (PROTOCOL.md §4)")

            let ping = try #require(try await CommandRun.client(["ping", "--json"], socket: daemon.socketPath).jsonObject())
            #expect(ping["roundTripMicroseconds"] is Int)
        }
    }

    @Test("matches shows local time on a 24-hour clock: a 19:00Z match at 14:00 in Guayaquil, 19:00 in UTC")
    func matchTimesOnA24HourClock() async throws {
        try await Self.withDaemon { daemon in
            // The sample data's "Barcelona SC vs. Vinotinto" is at 2025-02-15T19:00:00Z. An English
            // locale, whose clock is 12-hour, must not change the output.
            for (zone, expected) in [("America/Guayaquil", "2025-02-15 14:00"), ("UTC", "2025-02-15 19:00")] {
                let run = try await CommandRun.client(
                    ["matches", "serie-a", "--previous"], socket: daemon.socketPath,
                    environment: ["TZ": zone, "LC_ALL": "en_US.UTF-8", "LANG": "en_US.UTF-8"])
                #expect(run.status == 0, "\(run.errorOutput)")
                let row = run.lines.first { $0.contains("Barcelona SC vs. Vinotinto") }
                #expect(row?.hasPrefix(expected + "  ") == true, "TZ=\(zone): \(row ?? run.text)")
            }
        }
    }

    // MARK: - Options and version

    @Test("The common options work before and after the subcommand, and mean the same")
    func commonOptionsInEitherPlace() async throws {
        try await Self.withDaemon { daemon in
            let socket = daemon.socketPath
            // LIGAS_SOCKET points nowhere: only --socket can find the daemon.
            let nowhere = ["LIGAS_SOCKET": daemon.directory.url.appendingPathComponent("nowhere.sock").path]
            for arguments in [["--socket", socket, "ping"], ["ping", "--socket", socket]] {
                let run = try await CommandRun.client(arguments, socket: nil, environment: nowhere)
                #expect(run.status == 0, "\(arguments): \(run.errorOutput)")
                #expect(run.text.hasPrefix("pong in "), "\(arguments)")
            }
            for arguments in [["--json", "--socket", socket, "leagues"], ["leagues", "--json", "--socket", socket],
                              ["--socket", socket, "--timeout", "20", "leagues", "--json"]] {
                let run = try await CommandRun.client(arguments, socket: nil, environment: nowhere)
                #expect(run.status == 0, "\(arguments): \(run.errorOutput)")
                #expect(try run.jsonObject()?["source"] is String, "\(arguments): \(run.text)")
            }
            // One set of options, wherever each was written.
            let both = try await CommandRun.client(["--refresh", "teams", "serie-a", "--offline", "--socket", socket], socket: nil, environment: nowhere)
            #expect(both.status == 64, "\(both.errorOutput)")
            #expect(both.errorOutput.contains("--refresh and --offline exclude each other"))
        }
    }

    @Test("--version prints the one release version, the same as ligasd --version and status")
    func version() async throws {
        let client = try await CommandRun.client(["--version"], socket: nil)
        #expect(client.status == 0, "\(client.errorOutput)")
        let daemonVersion = try await CommandRun.run(Binaries.url("ligasd"), ["--version"], environment: [:])
        #expect(daemonVersion.status == 0)
        #expect(!client.text.isEmpty)
        #expect(client.text == daemonVersion.text)
        try await Self.withDaemon { daemon in
            let status = try await CommandRun.client(["status", "--json"], socket: daemon.socketPath).jsonObject()
            #expect((status?["version"] as? String).map { $0 + "\n" } == client.text)
        }
    }

    // MARK: - Plain messages

    @Test("A remote that answers 500, cuts a body off or refuses: ligas-client says what and where, host with port, in plain words")
    func remoteFailuresInPlainWords() async throws {
        let remote = try await LoopbackHTTPServer.start { path in
            if path.contains("serie-a") { return .status(500) }
            return .truncated(Data(#"{"teams":[{"id":"x"#.utf8), declaredLength: 500)
        }
        // A remote that is down from the start: a daemon that never had a connection to it (no
        // pooled connection to find reset) is refused.
        let down = try await LoopbackHTTPServer.start { _ in .status(200) }
        try await down.shutdown()
        let daemon = try await RunningDaemon(remote: remote.baseURL)
        let daemonOfDown = try await RunningDaemon(remote: down.baseURL)
        let outcome = await asyncResult {
            let status500 = try await CommandRun.client(["teams", "serie-a"], socket: daemon.socketPath)
            #expect(status500.status == 4, "\(status500.errorOutput)")
            #expect(status500.errorOutput == "ligas-client: invalidData: 127.0.0.1:\(remote.port) answered HTTP 500 for /leagues/serie-a/teams.json\n")

            let cutOff = try await CommandRun.client(["teams", "serie-b"], socket: daemon.socketPath)
            #expect(cutOff.status == 3, "\(cutOff.errorOutput)")
            #expect(cutOff.errorOutput == "ligas-client: connectivity: 127.0.0.1:\(remote.port) closed the connection before the response was complete\n")

            let refused = try await CommandRun.client(["teams", "serie-a"], socket: daemonOfDown.socketPath)
            #expect(refused.status == 3, "\(refused.errorOutput)")
            #expect(refused.errorOutput == "ligas-client: connectivity: cannot reach 127.0.0.1:\(down.port): connection refused\n")

            for run in [status500, cutOff, refused] {
                for leak in ["HTTPClientError", "errno", "Error(", "IOError"] {
                    #expect(!run.errorOutput.contains(leak), "\(run.errorOutput)")
                }
            }
        }
        _ = await daemon.stop()
        _ = await daemonOfDown.stop()
        try await remote.shutdown()
        try outcome.get()
    }

    @Test("Ctrl-C while waiting for an answer exits 130 with a plain 'interrupted', not CancellationError()")
    func interruptedRequest() async throws {
        let remote = try await LoopbackHTTPServer.start { _ in .stall }
        let daemon = try await RunningDaemon(remote: remote.baseURL)
        let outcome = await asyncResult {
            let run = try ChildProcess(
                Binaries.url("ligas-client"), ["teams", "serie-a"],
                environment: ["LIGAS_SOCKET": daemon.socketPath])
            defer { Task { await run.stop() } }
            // The remote has the daemon's request: ligas-client's request is surely in flight.
            try await poll("the daemon to ask the remote for the teams", timeout: .seconds(20)) {
                remote.requests.contains { $0.path.hasSuffix("/teams.json") } ? true : nil
            }
            run.signal(SIGINT)
            #expect(try await run.waitForExit() == 130, "\(run.errorOutput)")
            #expect(run.errorOutput == "ligas-client: interrupted\n")
        }
        _ = await daemon.stop()
        try await remote.shutdown()
        try outcome.get()
    }

    @Test("A daemon that never says hello, or whose backlog is full (stopped, swamped): --timeout gives up with exit 5, Ctrl-C with 130")
    func silentDaemon() async throws {
        let directory = TemporaryDirectory()
        // Listening, never accepting: the kernel completes a connection and takes the hello. One
        // socket each: a connection stays pending after its client has gone.
        func silentSocket(_ name: String, backlog: Int32 = 8) throws -> (path: String, listener: UnixSocket) {
            let path = directory.url.appendingPathComponent(name).path
            return (path, try UnixSocket.listening(at: path, backlog: backlog))
        }

        let (timing, timingListener) = try silentSocket("timeout.sock")
        let timedOut = try await CommandRun.client(["--timeout", "1", "ping"], socket: timing)
        #expect(timedOut.status == 5, "\(timedOut.errorOutput)")
        #expect(timedOut.errorOutput == "ligas-client: no complete answer from ligasd within 1 s (--timeout)\n")
        withExtendedLifetime(timingListener) {}

        // A backlog of 0 holds one connection; with it taken, connecting would block.
        let (full, fullListener) = try silentSocket("full.sock", backlog: 0)
        let filler = try UnixSocket.stream()
        try filler.connect(to: full)
        let waitedToConnect = try await CommandRun.client(["--timeout", "1", "ping"], socket: full)
        #expect(waitedToConnect.status == 5, "\(waitedToConnect.errorOutput)")
        #expect(waitedToConnect.errorOutput == "ligas-client: no complete answer from ligasd within 1 s (--timeout)\n")
        withExtendedLifetime((fullListener, filler)) {}

        let (path, listener) = try silentSocket("interrupt.sock")
        let run = try ChildProcess(Binaries.url("ligas-client"), ["ping"], environment: ["LIGAS_SOCKET": path])
        defer { Task { await run.stop() } }
        try await poll("ligas-client to connect") {
            var waiting = pollfd(fd: listener.fileDescriptor, events: Int16(POLLIN), revents: 0)
            return Glibc.poll(&waiting, 1, 0) > 0 ? true : nil
        }
        // Again until it exits: its SIGINT source may not be registered yet (the signal is ignored
        // meanwhile, so a repeat is harmless).
        try await poll("ligas-client to exit after SIGINT", every: .milliseconds(100)) {
            guard run.isRunning else { return () }
            run.signal(SIGINT)
            return nil
        }
        #expect(try await run.waitForExit() == 130, "\(run.errorOutput)")
        #expect(run.errorOutput == "ligas-client: interrupted\n")
        withExtendedLifetime(listener) {}
    }

    // MARK: - Exit codes

    @Test("Exit 69 when nothing listens at the socket path: no file, or a stale socket file")
    func daemonUnreachable() async throws {
        let directory = TemporaryDirectory()
        let missing = directory.url.appendingPathComponent("missing.sock").path
        let stale = directory.url.appendingPathComponent("stale.sock").path
        try UnixSocket.stream().bind(to: stale)  // closed at once: the file stays, with nobody listening
        for path in [missing, stale] {
            let run = try await CommandRun.client(["leagues"], socket: path)
            #expect(run.status == 69, "\(path): \(run.errorOutput)")
            #expect(run.errorOutput.contains("not reachable at \(path)"))
            #expect(run.output.isEmpty)
        }
    }

    @Test("Exit 2 for an unknown league, 3 for --offline with nothing cached, 64 for --refresh --offline")
    func failureExitCodes() async throws {
        try await Self.withDaemon { daemon in
            let notFound = try await CommandRun.client(["teams", "nope"], socket: daemon.socketPath)
            #expect(notFound.status == 2, "\(notFound.errorOutput)")
            #expect(notFound.errorOutput.contains("notFound"))

            let offline = try await CommandRun.client(["teams", "serie-a", "--offline"], socket: daemon.socketPath)
            #expect(offline.status == 3, "\(offline.errorOutput)")
            #expect(offline.errorOutput.contains("noCache"))

            let usage = try await CommandRun.client(["teams", "serie-a", "--refresh", "--offline"], socket: daemon.socketPath)
            #expect(usage.status == 64, "\(usage.errorOutput)")
            #expect(usage.errorOutput.contains("--refresh and --offline exclude each other"))
        }
    }

    // MARK: - Images

    @Test("image -o FILE writes the PNG and leaves nothing else; with stdout a pipe the bytes go to stdout")
    func imageToFileAndPipe() async throws {
        try await Self.withDaemon { daemon in
            let directory = TemporaryDirectory()
            let file = directory.url.appendingPathComponent("emelec.png").path
            let toFile = try await CommandRun.client(["image", "--team", "emelec", "-o", file], socket: daemon.socketPath)
            #expect(toFile.status == 0, "\(toFile.errorOutput)")
            let written = try #require(FileManager.default.contents(atPath: file))
            #expect(written.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            #expect(written == (try Self.emelecLogo))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["emelec.png"])
            #expect(toFile.output.isEmpty)

            let toPipe = try await CommandRun.client(["image", "--team", "emelec"], socket: daemon.socketPath)
            #expect(toPipe.status == 0, "\(toPipe.errorOutput)")
            #expect(toPipe.output == (try Self.emelecLogo))
        }
    }

    @Test("image refuses to write to a terminal (exit 64) and asks the daemon nothing")
    func imageRefusesTerminal() async throws {
        try await Self.withDaemon { daemon in
            let run = try await CommandRun.onTerminal([Binaries.url("ligas-client").path, "image", "--team", "emelec"], socket: daemon.socketPath)
            #expect(run.status == 64, "\(run.text)")
            #expect(run.text.contains("refusing to write image bytes to a terminal"))
            #expect(!run.output.contains(Data([0x89, 0x50, 0x4E, 0x47])))
            let status = try await CommandRun.client(["status", "--json"], socket: daemon.socketPath).jsonObject()
            #expect(status?["requestsServed"] as? Int == 0)
        }
    }

    @Test("A table on a terminal is bold, unless NO_COLOR is set")
    func colourOnTerminal() async throws {
        try await Self.withDaemon { daemon in
            let client = Binaries.url("ligas-client").path
            let coloured = try await CommandRun.onTerminal(["env", "-u", "NO_COLOR", client, "leagues"], socket: daemon.socketPath)
            #expect(coloured.status == 0, "\(coloured.text)")
            #expect(coloured.text.contains("\u{1B}[1mID"))
            #expect(coloured.text.contains("serie-a"))

            let plain = try await CommandRun.onTerminal(["env", "NO_COLOR=1", client, "leagues"], socket: daemon.socketPath)
            #expect(plain.status == 0, "\(plain.text)")
            #expect(!plain.text.contains("\u{1B}"))
            #expect(plain.text.contains("serie-a"))
        }
    }

    @Test("Ctrl-C during a download exits 130, leaves no file behind, and ligasd logs the stream as cancelled")
    func interruptedDownload() async throws {
        // The image never ends: one PNG-looking chunk at once, then a trickle, so the download is
        // surely in progress when the signal comes, whatever the machine's speed.
        let sample = Self.sample
        let remote = try await LoopbackHTTPServer.start { path in
            path.hasSuffix(".png")
                ? .trickle(first: Fixtures.pngImage(size: 8 * 1024), chunk: Data(repeating: 0xAB, count: 512),
                           every: .milliseconds(20), contentType: "image/png")
                : .file(root: sample)
        }
        let daemon = try await RunningDaemon(remote: remote.baseURL)
        let outcome = await asyncResult {
            let directory = TemporaryDirectory()
            let file = directory.url.appendingPathComponent("emelec.png").path
            let download = try ChildProcess(
                Binaries.url("ligas-client"), ["image", "--team", "emelec", "-o", file],
                environment: ["LIGAS_SOCKET": daemon.socketPath])
            defer { Task { await download.stop() } }
            // The download's own file beside FILE: FILE.part-XXXXXX.
            func partial() -> String? {
                (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path))?
                    .first { $0.hasPrefix("emelec.png.part-") }.map { directory.url.appendingPathComponent($0).path }
            }
            try await poll("\(file).part-XXXXXX to fill", timeout: .seconds(20)) {
                let size = partial().flatMap { (try? FileManager.default.attributesOfItem(atPath: $0))?[.size] as? Int } ?? 0
                if size == 0, !download.isRunning { throw TestFailure("ligas-client exited early: \(download.errorOutput)") }
                return size > 0 ? true : nil
            }
            download.signal(SIGINT)
            #expect(try await download.waitForExit() == 130, "\(download.errorOutput)")
            #expect(download.errorOutput == "ligas-client: interrupted\n", "no CancellationError(), no internals")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
            try await poll("ligasd to log the cancelled stream", timeout: .seconds(20)) {
                daemon.child.errorOutput.contains("image stream cancelled") ? true : nil
            }
            #expect(!daemon.child.errorOutput.contains("image stream complete"))
            // And it stopped fetching: the remote sees the download's connection go away.
            try await poll("ligasd to drop the remote download", timeout: .seconds(20)) {
                remote.disconnects >= 1 ? true : nil
            }
        }
        #expect(await daemon.stop() == 0)
        try await remote.shutdown()
        try outcome.get()
    }

    // MARK: - Shell completion

    @Test("--generate-completion-script bash prints a script that knows the subcommands")
    func completionScript() async throws {
        let run = try await CommandRun.client(["--generate-completion-script", "bash"], socket: nil)
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(run.text.contains("teams"))
        #expect(run.text.contains("image"))
    }
}

/// One finished run of a command: exit status, stdout, stderr.
struct CommandRun {
    let status: Int32
    let output: Data
    let errorOutput: String

    var text: String { String(decoding: output, as: UTF8.self) }
    var lines: [String] { text.split(separator: "\n").map(String.init) }

    func jsonObject() throws -> [String: Any]? {
        try JSONSerialization.jsonObject(with: output) as? [String: Any]
    }

    /// `ligas-client ARGUMENTS` with stdout a pipe, stdin /dev/null, and `LIGAS_SOCKET` when given.
    static func client(_ arguments: [String], socket: String?, environment: [String: String] = [:]) async throws -> CommandRun {
        var environment = environment
        if let socket { environment["LIGAS_SOCKET"] = socket }
        return try await run(Binaries.url("ligas-client"), arguments, environment: environment)
    }

    /// `command` on a pseudo-terminal, which util-linux `script` gives it: stdout and stderr are both
    /// the terminal, and both come back in `output`. `script -e` exits with the command's status.
    static func onTerminal(_ command: [String], socket: String) async throws -> CommandRun {
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try await run(
            URL(fileURLWithPath: "/usr/bin/script"), ["-q", "-e", "-c", quoted, "/dev/null"], environment: ["LIGAS_SOCKET": socket])
    }

    static func run(_ executable: URL, _ arguments: [String], environment: [String: String]) async throws -> CommandRun {
        let child = try ChildProcess(executable, arguments, environment: environment)
        // Read stdout while the child runs (a full pipe would block it), off the cooperative pool.
        let reader = Task { await offThePool("ligas-test-stdout") { child.output } }
        let status: Int32
        do {
            status = try await child.waitForExit()
        } catch {
            await child.stop()
            _ = await reader.value
            throw error
        }
        return CommandRun(status: status, output: await reader.value, errorOutput: child.errorOutput)
    }
}
