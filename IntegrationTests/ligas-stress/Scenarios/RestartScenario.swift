import Foundation
import LigasTestSupport

/// Issue #6, restart: ligasd under a real `systemd --user` manager, 16 clients asking in a loop,
/// while it is restarted (`systemctl --user restart`) and stopped with SIGTERM (then started
/// again by its socket) N times each. A request that fails because its connection went away is
/// asked once more on a new connection (counted as retried); failed requests: goal 0.
enum RestartScenario {
    static func run(_ options: Options) async throws -> Goals {
        try await UserManager.forScenario(options) { try await run(options, under: $0) }
    }

    private static func run(_ options: Options, under manager: UserManager) async throws -> Goals {
        var goals = Goals("restart")
        let cycles = try options.int("cycles", default: 20)
        let clientCount = try options.int("clients", default: 16)
        let startsBefore = manager.logLines(containing: "ligasd started")

        let stop = Shared(false)
        // Answers so far, per client: a cycle ends only when every client has been answered
        // again, so that no request can be caught by two cycles in a row (its first try by one,
        // its retry by the next); one retry is what a client is expected to make.
        let answered = Shared([Int](repeating: 0, count: clientCount))
        let phase = Shared("start")
        let workers = (0..<clientCount).map { index in
            Task {
                var client = RetryingClient(socketPath: manager.socketPath, timeout: .seconds(60))
                while !stop.value {
                    let (succeeded, failed) = (client.tally.succeeded, client.tally.failed)
                    await client.ask(Question.random())
                    if client.tally.succeeded > succeeded { answered.withLock { $0[index] += 1 } }
                    if client.tally.failed > failed {
                        Report.progress("restart: a request failed twice during \(phase.value) at \(Date().formatted(.iso8601.time(includingFractionalSeconds: true)))")
                    }
                }
                client.close()
                return client.tally
            }
        }

        var pids: Set<Int32> = []
        var cyclesDone = ["restart": 0, "kill": 0]
        var slowestRecovery: Duration = .zero
        do {
            try await waitForAnswers(answered, after: answered.value, "the first answers")
            for cycle in 0..<(cycles * 2) {
                let operation = cycle.isMultiple(of: 2) ? "restart" : "kill"
                let old = try await manager.mainPID()
                pids.insert(old)
                let started = ContinuousClock.now
                phase.withLock { $0 = "\(operation) \(cycle / 2 + 1) of ligasd \(old)" }
                let state = (try? await manager.systemctl("show", "-p", "ActiveState,SubState", "--value", "ligasd.service")) ?? "?"
                Report.progress("restart: \(operation) \(cycle / 2 + 1) of ligasd \(old) (\(state.split(separator: "\n").joined(separator: "/"))) at \(Date().formatted(.iso8601.time(includingFractionalSeconds: true)))")
                if operation == "restart" {
                    try await manager.systemctl("restart", "ligasd.service")
                } else {
                    try await manager.systemctl("kill", "--kill-whom=main", "-s", "TERM", "ligasd.service")
                    try await waitUntil("ligasd (pid \(old)) to exit after SIGTERM", timeout: .seconds(60)) { !processExists(old) }
                }
                // The cycle is over when a new instance runs and the clients got answers from it.
                try await waitUntil("a new ligasd after \(operation) \(cycle / 2 + 1)", timeout: .seconds(60), every: .milliseconds(50)) {
                    let pid = try await manager.mainPID()
                    return pid != 0 && pid != old
                }
                // Counted from here, when the old instance is gone: answers it gave while draining
                // do not count.
                try await waitForAnswers(answered, after: answered.value, "every client answered after \(operation) \(cycle / 2 + 1)")
                slowestRecovery = max(slowestRecovery, ContinuousClock.now - started)
                pids.insert(try await manager.mainPID())
                cyclesDone[operation, default: 0] += 1
                if cycle % 10 == 9 { Report.progress("restart: \(cycle + 1) of \(cycles * 2) cycles") }
            }
        } catch {
            Report.progress("restart: cycles stopped: \(error)")
            goals.check(false, "every cycle completed (\(error))")
        }
        stop.withLock { $0 = true }
        var tally = Tally()
        for worker in workers { tally.merge(await worker.value) }

        let alive = (try? await manager.mainPID()).map { $0 != 0 } ?? false
        pids.remove(0)
        goals.figure("clients", clientCount)
        goals.figure("restarts", cyclesDone["restart", default: 0])
        goals.figure("sigterms", cyclesDone["kill", default: 0])
        goals.figure("ligasd_instances", pids.count)
        goals.figure("starts_logged", manager.logLines(containing: "ligasd started") - startsBefore)
        goals.figure("requests", tally.succeeded + tally.failed)
        goals.figure("failed", tally.failed)
        goals.figure("retried", tally.retried)
        goals.figure("retry_kinds", Tally.describe(tally.retryReasons))
        goals.figure("failure_kinds", Tally.describe(tally.failures))
        goals.figure("slowest_request_s", Report.seconds(tally.slowest))
        goals.figure("slowest_cycle_s", Report.seconds(slowestRecovery))
        goals.check(cyclesDone["restart"] == cycles && cyclesDone["kill"] == cycles, "all \(cycles)+\(cycles) cycles ran")
        goals.check(tally.failed == 0, "zero failed requests (\(tally.failed))")
        goals.check(alive, "ligasd is running at the end")
        return goals
    }

    /// Waits until every client has had an answer more than it had in `before`.
    private static func waitForAnswers(_ answered: Shared<[Int]>, after before: [Int], _ what: String) async throws {
        try await waitUntil(what, timeout: .seconds(60)) { zip(answered.value, before).allSatisfy { $0 > $1 } }
    }
}

func processExists(_ pid: Int32) -> Bool {
    pid > 0 && FileManager.default.fileExists(atPath: "/proc/\(pid)")
}
