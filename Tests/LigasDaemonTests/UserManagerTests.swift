import Foundation
import LigasClient
import LigasProtocol
import LigasSampleDataLocation
import LigasTestSupport
import Testing

/// The project's user units under a real `systemd --user` manager: socket activation,
/// Type=notify readiness, the watchdog, idle exit with re-activation, and restarts under load.
@Suite("User units under a real systemd --user manager", .serialized)
struct UserManagerTests {
    @Test("The first connection starts ligasd, and the Type=notify unit becomes active only once it is ready")
    func socketActivationAndReadiness() async throws {
        try await UserManager.run(binaryDirectory: Binaries.directory, remote: BundledSampleData.baseURL.path, serviceSettings: ["Environment=LIGASD_IDLE_EXIT=0"]) { manager in
            #expect(try await manager.service("ActiveState") == "inactive")

            let client = try await LigasClient.connect(socketPath: manager.socketPath)
            defer { client.close() }
            #expect(try await client.teams(league: "serie-a").value.count == 16)

            #expect(try await manager.service("ActiveState") == "active")
            #expect(try await manager.service("StatusText") == "serving on the activated socket")
            #expect(Int(try await manager.service("MainPID")) ?? 0 > 0)
        }
    }

    @Test("A setting ligasd cannot take: each client that starts it is told why (misconfigured), systemd does not restart it, and the socket keeps listening")
    func misconfigured() async throws {
        try await UserManager.run(binaryDirectory: Binaries.directory, remote: BundledSampleData.baseURL.path, serviceSettings: ["Environment=LIGASD_LOG_LEVEL=loud"]) { manager in
            for _ in 1...2 {
                let refusal = await asyncResult {
                    try await within(.seconds(20), "the hello exchange") { try await LigasClient.connect(socketPath: manager.socketPath) }
                }
                guard case .failure(ClientError.server(let body)) = refusal else {
                    Issue.record("expected misconfigured, got \(refusal)")
                    return
                }
                #expect(body.code == .misconfigured)
                #expect(body.message.hasPrefix("ligasd cannot start: LIGASD_LOG_LEVEL=loud: expected "), "\(body.message)")
                try await poll("ligasd.service to fail", timeout: .seconds(20)) {
                    try await manager.service("ActiveState") == "failed" ? true : nil
                }
            }
            #expect(try await manager.service("ExecMainStatus") == "64")
            #expect(try await manager.service("NRestarts") == "0")
            let socketState = try await manager.systemctl("show", "--property=ActiveState", "--value", "ligasd.socket")
            #expect(socketState.trimmingCharacters(in: .whitespacesAndNewlines) == "active")
        }
    }

    @Test("A directory too long for the manager's sockets is refused with a named error, before anything starts")
    func directoryTooLongForSockets() async throws {
        let directory = TemporaryDirectory()
        let deep = directory.url.appendingPathComponent(String(repeating: "d", count: 120))
        await #expect(throws: UserManager.ManagerFailure.self) {
            try await UserManager(binaryDirectory: Binaries.directory, remote: BundledSampleData.baseURL.path, directory: deep)
        }
        #expect(!FileManager.default.fileExists(atPath: deep.path))
    }

    @Test("A manager its owner never stopped does not outlive it, nor does its ligasd, and its log stays")
    func droppedManagerStops() async throws {
        let started = Shared<[SpawnedProcess]>([])
        var manager: UserManager? = try await UserManager(
            binaryDirectory: Binaries.directory, remote: BundledSampleData.baseURL.path,
            serviceSettings: ["Environment=LIGASD_IDLE_EXIT=0"],
            tracking: .init(started: { process in started.withLock { $0.append(process) } }, ended: { _ in }))
        let process = try #require(started.value.first)  // the manager, before any systemctl
        try await LigasClient.connect(socketPath: manager!.socketPath).ping()
        let ligasd = try #require(try await manager?.mainPID())
        #expect(ligasd > 0)
        let directory = try #require(manager?.directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        manager = nil
        try await poll("the dropped manager exited", timeout: .seconds(20)) { process.hasExited ? () : nil }
        try await poll("its ligasd exited", timeout: .seconds(20)) {
            // Gone, a zombie its new parent has not reaped yet, or the pid now another program's.
            guard let process = ProcessCounters.stat(of: ligasd), process.name == "ligasd" else { return () }
            return process.fields.first == "Z" ? () : nil
        }
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("manager.log").path))
    }

    @Test("With WatchdogSec=, ligasd keeps pinging the watchdog")
    func watchdog() async throws {
        try await UserManager.run(binaryDirectory: Binaries.directory, remote: BundledSampleData.baseURL.path, serviceSettings: ["WatchdogSec=1", "Environment=LIGASD_IDLE_EXIT=0"]) { manager in
            try await LigasClient.connect(socketPath: manager.socketPath).ping()
            let first = try await manager.service("WatchdogTimestampMonotonic")
            try await waitUntil("a second watchdog ping") { try await manager.service("WatchdogTimestampMonotonic") != first }
            #expect(try await manager.service("NRestarts") == "0")
            #expect(try await manager.service("ActiveState") == "active")
        }
    }

    @Test("Idle exit and re-activation: clients connecting at random moments over many exit cycles never fail")
    func idleExitRace() async throws {
        try await UserManager.run(binaryDirectory: Binaries.directory, remote: BundledSampleData.baseURL.path, serviceSettings: ["Environment=LIGASD_IDLE_EXIT=0.1"]) { manager in
            var generator = SeededGenerator(seed: 2026)
            var pids = Set<String>()
            var failures: [String] = []
            for _ in 0..<60 {
                // Random moments around the 0.1 s idle exit: before, during and after it.
                try await Task.sleep(for: .milliseconds(Int(generator.next() % 250)))
                do {
                    let client = try await LigasClient.connect(socketPath: manager.socketPath)
                    try await client.ping()
                    client.close()
                } catch {
                    failures.append("\(error)")
                }
                pids.insert(try await manager.service("InvocationID"))
            }
            #expect(failures == [])
            #expect(pids.count > 5, "ligasd exited and was re-activated several times")
        }
    }

    @Test("A restart while clients are running: every request succeeds, retrying once where ligasd said it was stopping")
    func restartUnderLoad() async throws {
        try await UserManager.run(binaryDirectory: Binaries.directory, remote: BundledSampleData.baseURL.path, serviceSettings: ["Environment=LIGASD_IDLE_EXIT=0"]) { manager in
            let path = manager.socketPath
            try await LigasClient.connect(socketPath: path).ping()
            let firstInvocation = try await manager.service("InvocationID")
            let completed = Counter()
            let outcome = try await withThrowingTaskGroup(of: (failed: [String], retried: Int).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var failed: [String] = [], retried = 0
                        for _ in 0..<80 {
                            defer { completed.add(1) }
                            switch await Self.teamsWithOneRetry(path) {
                            case .ok: break
                            case .retried: retried += 1
                            case .failed(let why): failed.append(why)
                            }
                        }
                        return (failed, retried)
                    }
                }
                // Three restarts spread over the run, each once the clients have made progress since
                // the one before returned. (Milestones fixed in advance let a slow restart pass the
                // next one: the instance it started was stopped at once, and a client whose retry it
                // had taken failed twice.)
                var milestone = 60
                for _ in 0..<3 {
                    try await waitUntil("\(milestone) requests") { completed.total >= milestone }
                    try await manager.systemctl("restart", "ligasd.service")
                    milestone = completed.total + 40
                }
                return try await group.reduce((failed: [String](), retried: 0)) { (failed: $0.failed + $1.failed, retried: $0.retried + $1.retried) }
            }
            #expect(try await manager.service("InvocationID") != firstInvocation, "ligasd really was restarted")
            #expect(outcome.failed == [], "\((try? String(contentsOf: manager.daemonLog, encoding: .utf8)) ?? "")")
            #expect(try await manager.service("ActiveState") == "active")
        }
    }

    enum Attempt: Equatable { case ok, retried, failed(String) }

    /// A fresh connection per request, as a shell tool would; `shuttingDown` or a connection
    /// closed by a stopping daemon is retried once on a new connection (the protocol's advice).
    static func teamsWithOneRetry(_ path: String) async -> Attempt {
        var reasons: [String] = []
        for attempt in 0..<2 {
            do {
                let client = try await LigasClient.connect(socketPath: path)
                defer { client.close() }
                guard try await client.teams(league: "serie-a").value.count == 16 else { return .failed("wrong answer") }
                return attempt == 0 ? .ok : .retried
            } catch ClientError.server(let body) where body.code == .shuttingDown {
                reasons.append("shuttingDown")
            } catch ClientError.connectionClosed {
                reasons.append("connectionClosed")
            } catch {
                return .failed("\(error)")
            }
        }
        return .failed("still stopping after a retry: \(reasons)")
    }
}
