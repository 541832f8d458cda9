import Foundation
import Glibc
import LigasClient
import LigasProtocol
import LigasTestSupport

/// Issue #6, load: 1,000 concurrent connections × 100 requests each with zero errors; and the
/// connection cap refuses cleanly (the client sees the named error `tooManyRequests`) while the
/// daemon keeps serving.
enum LoadScenario {
    static func run(_ options: Options) async throws -> Goals {
        var goals = Goals("load")
        let connections = try options.int("connections", default: 1000)
        let requests = try options.int("requests", default: 100)
        let work = options.workDirectory
        let excluded = Set((options.string("exclude") ?? "").split(separator: ",").map(String.init))
        try await manyConnections(options, connections: connections, requests: requests, excluded: excluded, work: work, goals: &goals)
        try await connectionCap(options, cap: try options.int("cap", default: 8), attempts: try options.int("cap-attempts", default: 200),
                                work: work, goals: &goals)
        return goals
    }

    // MARK: - 1,000 × 100

    private static func manyConnections(
        _ options: Options, connections: Int, requests: Int, excluded: Set<String>, work: URL, goals: inout Goals
    ) async throws {
        // The default caps are 256 connections, 128 per user: lift both above the run's own count
        // (every client here is the same user).
        let cap = connections + 64
        let daemon = try await StressDaemon.start(
            options, directory: work.appendingPathComponent("many"), remote: options.sampleData.path,
            settings: ["LIGASD_MAX_CONNECTIONS": "\(cap)", "LIGASD_MAX_CONNECTIONS_PER_UID": "\(cap)"])
        var ownLimit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &ownLimit)
        let daemonLimit = ProcessCounters.openFileLimit(of: daemon.pid) ?? 0
        goals.figure("connections", connections)
        goals.figure("requests_per_connection", requests)
        goals.figure("methods_left_out", excluded.isEmpty ? "none" : excluded.sorted().joined(separator: ","))
        goals.figure("max_connections_setting", cap)
        goals.figure("fd_limit_daemon", daemonLimit)
        goals.figure("fd_limit_clients", ownLimit.rlim_cur)
        goals.check(daemonLimit >= cap + 32, "ligasd's open-file limit (\(daemonLimit)) holds \(cap) connections")
        goals.check(Int(ownLimit.rlim_cur) >= connections + 64, "this process's open-file limit holds \(connections) connections")

        // Warm the cache so the run measures serving, not the first remote loads.
        let warm = try await daemon.client()
        for league in Question.leagueIDs { _ = try await warm.teams(league: league) }
        for team in Question.teamIDs { _ = try await warm.players(team: team) }
        for team in Question.teamIDs { try await Question.image(.team(team)).ask(warm) }
        warm.close()
        let idle = daemon.memory

        Report.progress("load: opening \(connections) connections")
        let connectStarted = ContinuousClock.now
        let clients = try await openConnections(daemon: daemon, count: connections)
        let connectTime = ContinuousClock.now - connectStarted
        let status = try await daemon.client()
        let open = try await status.status().openConnections
        goals.figure("connect_s", Report.seconds(connectTime))
        goals.check(clients.count == connections, "all \(connections) connections opened (\(clients.count))")
        goals.check(open >= UInt64(connections), "ligasd holds all \(connections) connections at once (status says \(open))")

        Report.progress("load: \(connections) × \(requests) requests")
        let sampler = PeakSampler.memory(of: daemon.pid, every: .milliseconds(200))
        let watch = HangWatch(socketPath: daemon.socketPath)
        let started = ContinuousClock.now
        let (tally, latencies) = await withTaskGroup(of: (Tally, [Duration]).self) { group in
            for client in clients {
                group.addTask { await ask(client, count: requests, excluding: excluded, watch: watch) }
            }
            var total = Tally()
            var latencies: [Duration] = []
            latencies.reserveCapacity(connections * requests)
            for await (tally, times) in group {
                total.merge(tally)
                latencies += times
            }
            return (total, latencies)
        }
        let wall = ContinuousClock.now - started
        let peak = sampler.stop()
        let threads = ProcessCounters.threads(of: daemon.pid) ?? 0
        clients.forEach { $0.close() }

        let total = tally.succeeded + tally.failed
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> String {
            sorted.isEmpty ? "0" : String(format: "%.1f", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))].seconds * 1000)
        }
        goals.figure("daemon_hung", watch.hung.value ? "yes" : "no")
        goals.figure("daemon_threads", threads)
        goals.figure("requests", total)
        goals.figure("errors", tally.failed)
        goals.figure("error_kinds", Tally.describe(tally.failures))
        goals.figure("wall_s", Report.seconds(wall))
        goals.figure("req_per_s", Int(Double(total) / max(wall.seconds, 0.001)))
        goals.figure("p50_ms", percentile(0.5))
        goals.figure("p99_ms", percentile(0.99))
        goals.figure("max_ms", percentile(1))
        goals.figure("rss_idle_mib", Report.mebibytes(kibibytes: idle?.residentKiB ?? 0))
        goals.figure("rss_peak_mib", Report.mebibytes(kibibytes: peak))
        goals.check(!watch.hung.value, "ligasd kept answering (it stopped answering even a new connection's ping)")
        goals.check(total == connections * requests, "every request was asked (\(total) of \(connections * requests))")
        goals.check(tally.failed == 0, "zero errors under load (\(tally.failed))")

        // Still serving afterwards, and then a clean stop.
        let stillServing = (try? await within(.seconds(10), "ping after load") { try await status.ping() }) != nil
        status.close()
        goals.check(stillServing, "ligasd answers after the load run")
        let exitStatus = await daemon.stop()
        goals.check(exitStatus == 0, "ligasd stops cleanly after the load run (exit \(exitStatus))")
    }

    /// Opens `count` connections, at most 64 handshakes at a time.
    private static func openConnections(daemon: StressDaemon, count: Int) async throws -> [LigasClient] {
        try await withThrowingTaskGroup(of: LigasClient.self) { group in
            var clients: [LigasClient] = []
            for index in 0..<count {
                if index >= 64, let client = try await group.next() { clients.append(client) }
                group.addTask { try await daemon.client() }
            }
            for try await client in group { clients.append(client) }
            return clients
        }
    }

    private static func ask(_ client: LigasClient, count: Int, excluding: Set<String>, watch: HangWatch) async -> (Tally, [Duration]) {
        var tally = Tally()
        var latencies: [Duration] = []
        latencies.reserveCapacity(count)
        for _ in 0..<count where !watch.hung.value {
            let question = Question.random(excluding: excluding)
            let started = ContinuousClock.now
            do {
                try await within(.seconds(30), "\(question)") { try await question.ask(client) }
                tally.succeeded += 1
            } catch {
                let failure = Failure(error)
                tally.fail(failure, question: question)
                if failure == .timedOut { await watch.probe() }
            }
            latencies.append(ContinuousClock.now - started)
        }
        return (tally, latencies)
    }

    // MARK: - The connection cap

    private static func connectionCap(_ options: Options, cap: Int, attempts: Int, work: URL, goals: inout Goals) async throws {
        Report.progress("load: connection cap \(cap), \(attempts) connections over it")
        let daemon = try await StressDaemon.start(
            options, directory: work.appendingPathComponent("cap"), remote: options.sampleData.path,
            settings: ["LIGASD_MAX_CONNECTIONS": "\(cap)"])
        var held: [LigasClient] = []
        for _ in 0..<cap {
            let client = try await daemon.client()
            try await client.ping()
            held.append(client)
        }

        // Every connection over the cap must end in the named error, never in a bare close.
        var outcomes: [String: Int] = [:]
        for _ in 0..<attempts {
            let path = daemon.socketPath
            do {
                let extra = try await within(.seconds(10), "connecting over the cap") {
                    try await LigasClient.connect(socketPath: path, agent: "ligas-stress")
                }
                outcomes["accepted", default: 0] += 1
                extra.close()
            } catch ClientError.server(let body) where body.code == .tooManyRequests {
                outcomes["tooManyRequests", default: 0] += 1
            } catch {
                outcomes["\(Failure(error))", default: 0] += 1
            }
        }
        let named = outcomes["tooManyRequests", default: 0]
        // The same at the wire, without the client library: what the daemon itself sends.
        let socket = daemon.socketPath
        let wire = try await offThePool("cap-wire") { Result { try refusalsOnTheWire(socket: socket, attempts: attempts) } }.get()
        goals.figure("cap", cap)
        goals.figure("cap_attempts", attempts)
        goals.figure("cap_refused_named_wire", wire["tooManyRequests", default: 0])
        goals.figure("cap_wire_outcomes", Tally.describe(wire))
        goals.figure("cap_refused_named_client", named)
        goals.figure("cap_client_outcomes", Tally.describe(outcomes))
        goals.check(wire["tooManyRequests", default: 0] == attempts,
                    "ligasd answers every connection over the cap with an error frame tooManyRequests, then closes")
        goals.check(named == attempts, "LigasClient reports every refusal as tooManyRequests (\(named)/\(attempts))")

        // The connections within the cap keep working, and once they close new ones get in.
        var heldOK = 0
        for client in held {
            if (try? await within(.seconds(10), "ping", { try await client.ping() })) != nil { heldOK += 1 }
        }
        held.forEach { $0.close() }
        var servedAfter = 0
        for _ in 0..<cap {
            // The daemon notices a close a moment after the client makes it: allow that moment.
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                if let client = try? await daemon.client() {
                    if (try? await within(.seconds(10), "teams") { try await client.teams(league: "serie-a") }) != nil { servedAfter += 1 }
                    held.append(client)
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        held.forEach { $0.close() }
        goals.figure("cap_held_still_serving", "\(heldOK)/\(cap)")
        goals.figure("cap_served_after", "\(servedAfter)/\(cap)")
        goals.check(heldOK == cap, "connections within the cap keep being served (\(heldOK)/\(cap))")
        goals.check(servedAfter == cap, "the daemon serves new connections after refusing (\(servedAfter)/\(cap))")
        let exitStatus = await daemon.stop()
        goals.check(exitStatus == 0, "ligasd stops cleanly after the cap test (exit \(exitStatus))")
    }

    /// Connects over the cap, says hello (the daemon may have closed already: then the write
    /// fails, and what it sent is still there to read), and reads what comes back.
    private static func refusalsOnTheWire(socket: String, attempts: Int) throws -> [String: Int] {
        var outcomes: [String: Int] = [:]
        for _ in 0..<attempts {
            let connection = try RawConnection(path: socket)
            connection.send(HandFrames.hello())
            let frames = connection.drain(quiet: .seconds(5))
            let outcome: String
            if frames.count == 1, case .error(0, let body)? = try? Message(frame: frames[0]) {
                outcome = connection.closedByPeer ? body.code.rawValue : "\(body.code.rawValue)-not-closed"
            } else {
                outcome = "frames:" + frames.map { "\($0.kind)" }.joined(separator: "+") + (connection.closedByPeer ? "" : "-not-closed")
            }
            outcomes[outcome, default: 0] += 1
        }
        return outcomes
    }
}

/// Tells a slow daemon from a hung one: after a request times out, one probe asks for a ping on
/// a new connection; no answer within 10 s means ligasd has stopped serving, and the run stops
/// instead of waiting out every remaining request.
final class HangWatch: Sendable {
    let hung = Shared(false)
    private let probing = Shared(false)
    private let socketPath: String

    init(socketPath: String) { self.socketPath = socketPath }

    func probe() async {
        let first = probing.withLock { probing in
            defer { probing = true }
            return !probing
        }
        guard first else { return }
        let path = socketPath
        let answered = (try? await within(.seconds(10), "a ping on a new connection") { () async throws -> Bool in
            let client = try await LigasClient.connect(socketPath: path, agent: "ligas-stress-probe")
            defer { client.close() }
            try await client.ping()
            return true
        }) ?? false
        if answered {
            probing.withLock { $0 = false }
        } else {
            hung.withLock { $0 = true }
            Report.progress("load: ligasd no longer answers a ping on a new connection: stopping the run")
        }
    }
}
