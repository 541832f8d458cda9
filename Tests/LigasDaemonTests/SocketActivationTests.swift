import Foundation
import Glibc
import LigasClient
import LigasProtocol
import LigasSampleDataLocation
import LigasTestSupport
import Testing

/// ligasd under the real `systemd-socket-activate`: the socket passed as fd 3 named "ligasd", the
/// sd_notify protocol on a `NOTIFY_SOCKET` the test plays the service manager on, the watchdog,
/// SIGTERM and idle exit. (Re-activation after an exit needs a real manager: `UserManagerTests`.)
@Suite("ligasd under systemd-socket-activate")
struct SocketActivationTests {
    let sample = BundledSampleData.baseURL

    @Test("The first connection starts ligasd on the passed socket; it answers and tells the manager READY=1")
    func activationAndReadiness() async throws {
        try await ActivatedDaemon.run(remote: sample) { daemon in
            // The tool listens, but nothing runs ligasd until a client connects.
            try await poll("systemd-socket-activate to create \(daemon.socketPath)") {
                FileManager.default.fileExists(atPath: daemon.socketPath) ? true : nil
            }
            #expect(try daemon.notify.assignments() == [])

            let client = try await daemon.client()
            defer { client.close() }
            let teams = try await within(.seconds(20), "teams serie-a") { try await client.teams(league: "serie-a") }
            #expect(teams.value.count == 16)
            #expect(teams.value.contains { $0.id == "emelec" && $0.name == "Emelec" })
            #expect(teams.source == .remote)

            let assignments = try await daemon.notify.waitFor("READY=1") { $0.contains("READY=1") }
            #expect(assignments.contains("STATUS=serving on the activated socket"))
            #expect(!assignments.contains("STOPPING=1"))
            // The tool exec'd ligasd in its own process, which now serves the socket it was handed.
            let command = try String(contentsOfFile: "/proc/\(daemon.pid)/comm", encoding: .utf8)
            #expect(command.trimmingCharacters(in: .whitespacesAndNewlines) == "ligasd")
            #expect(daemon.log.contains("LIGAS_SOCKET_ACTIVATED=true"))
        }
    }

    @Test(
        "With WATCHDOG_USEC=200000 ligasd keeps sending WATCHDOG=1",
        arguments: [false, true])
    func watchdog(withOwnWatchdogPID: Bool) async throws {
        // WATCHDOG_PID, when set, must be ligasd's pid: the tool's own (it execs ligasd), which a
        // shell that execs the tool knows as $$.
        try await ActivatedDaemon.run(remote: sample, environment: ["WATCHDOG_USEC": "200000"], watchdogPIDIsOwn: withOwnWatchdogPID) { daemon in
            let client = try await daemon.client()
            defer { client.close() }
            try await within(.seconds(20), "ping") { try await client.ping() }

            let assignments = try await daemon.notify.waitFor("two WATCHDOG=1") { $0.filter { $0 == "WATCHDOG=1" }.count >= 2 }
            #expect(assignments.contains("READY=1"))
            #expect(daemon.process.isRunning, "ligasd keeps running: \(daemon.log)")
        }
    }

    @Test("A WATCHDOG_PID that is not ligasd's turns the watchdog off: no WATCHDOG=1 by the time SIGTERM is handled")
    func watchdogForAnotherProcess() async throws {
        try await ActivatedDaemon.run(remote: sample, environment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"]) { daemon in
            let client = try await daemon.client()
            try await within(.seconds(20), "ping") { try await client.ping() }
            client.close()
            try await daemon.notify.waitFor("READY=1") { $0.contains("READY=1") }
            daemon.process.signal(SIGTERM)
            #expect(try await daemon.process.waitForExit() == 0)
            // Everything ligasd sent has arrived once STOPPING=1 has: the datagrams are in order.
            let assignments = try await daemon.notify.waitFor("STOPPING=1") { $0.contains("STOPPING=1") }
            #expect(!assignments.contains("WATCHDOG=1"))
        }
    }

    @Test("Started with no arguments (as systemd starts it) and a setting it cannot take, ligasd tells the client that started it why (misconfigured, id 0), logs one line without the usage text, and exits 64, so that systemd does not start it again for the same client")
    func misconfigured() async throws {
        try await ActivatedDaemon.run(remote: sample, environment: ["LIGASD_LOG_LEVEL": "loud"]) { daemon in
            let refusal = try await poll("ligasd's answer to the connection that started it", timeout: .seconds(20), every: .milliseconds(10)) {
                () async throws -> ErrorBody? in
                do {
                    let client = try await within(.seconds(20), "connect") { try await LigasClient.connect(socketPath: daemon.socketPath) }
                    client.close()
                    throw TestFailure("a misconfigured ligasd took a client")
                } catch ClientError.daemonUnreachable {
                    return nil  // the tool is not listening yet
                } catch ClientError.server(let body) {
                    return body
                }
            }
            #expect(refusal.code == .misconfigured)
            #expect(refusal.message.hasPrefix("ligasd cannot start: LIGASD_LOG_LEVEL=loud: expected "), "\(refusal.message)")
            #expect(try await daemon.process.waitForExit() == 64)
            #expect(daemon.log.contains("ligasd: LIGASD_LOG_LEVEL=loud: expected "), "\(daemon.log)")
            #expect(!daemon.log.contains("Usage"), "\(daemon.log)")
            #expect(try daemon.notify.assignments() == [])
        }
    }

    @Test("SIGTERM: ligasd says STOPPING=1 after its stopping status, and exits 0")
    func sigterm() async throws {
        try await ActivatedDaemon.run(remote: sample) { daemon in
            let client = try await daemon.client()
            #expect(try await within(.seconds(20), "leagues") { try await client.leagues() }.value.count == 2)
            client.close()
            try await daemon.notify.waitFor("READY=1") { $0.contains("READY=1") }

            daemon.process.signal(SIGTERM)
            let status = try await daemon.process.waitForExit()
            #expect(status == 0, "ligasd printed: \(daemon.log)")  // its own exit: a signal's is minus its number

            let assignments = try await daemon.notify.waitFor("STOPPING=1") { $0.contains("STOPPING=1") }
            let ready = try #require(assignments.firstIndex(of: "READY=1"))
            let stoppingStatus = try #require(assignments.firstIndex(of: "STATUS=stopping: SIGTERM"))
            let stopping = try #require(assignments.firstIndex(of: "STOPPING=1"))
            #expect(ready < stoppingStatus && stoppingStatus < stopping)
            #expect(daemon.log.contains("LIGAS_REASON=SIGTERM"))
        }
    }

    @Test("With LIGASD_IDLE_EXIT=0.3, after its one client is done ligasd exits 0 by itself")
    func idleExit() async throws {
        try await ActivatedDaemon.run(remote: sample, environment: ["LIGASD_IDLE_EXIT": "0.3"]) { daemon in
            let client = try await daemon.client()
            #expect(try await within(.seconds(20), "players emelec") { try await client.players(team: "emelec") }.value.count == 23)
            client.close()

            // Bounded only to stop a hung test; nothing here measures how long it took.
            let status = try await daemon.process.waitForExit(timeout: .seconds(20))
            #expect(status == 0, "ligasd printed: \(daemon.log)")  // its own exit: a signal's is minus its number
            let assignments = try await daemon.notify.waitFor("STOPPING=1") { $0.contains("STOPPING=1") }
            #expect(assignments.contains("STATUS=stopping: idle"))
            #expect(daemon.log.contains("LIGAS_REASON=idle"))
        }
    }

    @Test("Once its last client has gone, ligasd gives its code pages back, and the next client is answered as before")
    func codePagesGivenBackWhenIdle() async throws {
        try await ActivatedDaemon.run(remote: sample, environment: ["LIGASD_IDLE_EXIT": "0"]) { daemon in
            let first = try await daemon.client()
            #expect(try await within(.seconds(20), "teams serie-a") { try await first.teams(league: "serie-a") }.value.count == 16)
            let whileServing = try Self.residentCodeKiB(of: daemon.pid)
            #expect(whileServing > 0)
            first.close()
            // Bounded wait for the release, which runs off the server's queue once the connection is gone.
            let idle = try await poll("ligasd's code pages given back", timeout: .seconds(20), every: .milliseconds(20)) {
                let now = try Self.residentCodeKiB(of: daemon.pid)
                return now < whileServing / 2 ? now : nil
            }
            #expect(idle < whileServing / 2)

            let second = try await daemon.client()
            defer { second.close() }
            #expect(try await within(.seconds(20), "teams serie-a") { try await second.teams(league: "serie-a") }.value.count == 16)
        }
    }

    /// KiB of a process's own executable code resident now (`/proc/PID/smaps`: the executable
    /// mappings of the file `/proc/PID/exe` names).
    static func residentCodeKiB(of pid: Int32) throws -> Int {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        // Read to the end: procfs files have no size, and `String(contentsOfFile:)` may stop early.
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps") else { return 0 }
        let smaps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        var inCode = false, total = 0
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 5, fields[0].contains("-"), fields[1].count == 4 {
                inCode = fields[1].contains("x") && fields.count > 5 && fields[5...].joined(separator: " ") == executable
            } else if inCode, fields.first == "Rss:", fields.count > 1, let kib = Int(fields[1]) {
                total += kib
            }
        }
        return total
    }
}
