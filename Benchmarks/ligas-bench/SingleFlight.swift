import Foundation
import LigasClient
import LigasProtocol
import LigasTestSupport

/// The single-flight effect: 100 concurrent cold requests for the same teams, while the remote
/// holds its answer, must reach the remote once. The remote is a real HTTP server on loopback
/// whose teams feed waits behind a gate until every request is in flight at the daemon.
enum SingleFlight {
    static func run(ligasd: String, fixture: BenchFixture, directory: URL, clients: Int) async throws {
        let gate = Gate()
        let teamsPath = "/leagues/\(BenchFixture.league)/teams.json"
        let teamsFeed = try Data(contentsOf: fixture.root.appendingPathComponent(String(teamsPath.dropFirst())))
        let remote = try await LoopbackHTTPServer.start { path in
            path == teamsPath ? .gated(gate, then: .ok(teamsFeed, contentType: "application/json")) : .file(root: fixture.root)
        }
        let daemon = try BenchDaemon(ligasd: ligasd, remote: remote.baseURL.absoluteString, directory: directory, name: "single-flight")
        do {
            _ = try daemon.firstReply()
            let probe = try await LigasClient.connect(socketPath: daemon.socketPath, agent: "ligas-bench")
            defer { probe.close() }
            let requests = Task {
                try await withThrowingTaskGroup(of: TeamsSource.self) { group in
                    for _ in 0..<clients {
                        group.addTask {
                            let client = try await LigasClient.connect(socketPath: daemon.socketPath, agent: "ligas-bench")
                            defer { client.close() }
                            return TeamsSource(try await client.teams(league: BenchFixture.league))
                        }
                    }
                    return try await group.reduce(into: [TeamsSource]()) { $0.append($1) }
                }
            }
            // Open the gate only once all of them are in flight (the probe's status is answered at
            // once, so it is never in flight itself).
            let started = ContinuousClock.now
            while try await probe.status().inFlightRequests < UInt64(clients) {
                guard ContinuousClock.now - started < .seconds(30) else { throw BlockingClient.Failure(description: "requests never all in flight") }
                try await Task.sleep(for: .milliseconds(5))
            }
            gate.open()
            let answers = try await requests.value
            let remoteRequests = remote.requests.filter { $0.path == teamsPath }.count
            let complete = answers.filter { $0.count == BenchFixture.teamCount }.count
            Report.result("single_flight", ["clients": clients, "answers": complete, "remote_requests": remoteRequests])
        } catch {
            await daemon.stop()
            try? await remote.shutdown()
            throw error
        }
        await daemon.stop()
        try await remote.shutdown()
    }

    struct TeamsSource: Sendable {
        let count: Int
        init(_ result: TeamsResult) { count = result.value.count }
    }
}
