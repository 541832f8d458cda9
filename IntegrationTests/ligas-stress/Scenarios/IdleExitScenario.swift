import Foundation
import LigasClient
import LigasTestSupport

/// Issue #6, idle exit: ligasd under a real `systemd --user` manager with a short
/// `LIGASD_IDLE_EXIT`, so it exits whenever nobody is connected for that long and its socket
/// starts it again. Clients connect at random moments — some land while it is idle, some just
/// as it decides to exit, some while it is gone — over N exit cycles. Zero failures, and no
/// retries: a client must never notice the daemon coming and going.
enum IdleExitScenario {
    static func run(_ options: Options) async throws -> Goals {
        let idle = try options.seconds("idle", default: 0.3)
        let setting = "Environment=LIGASD_IDLE_EXIT=\(idle.seconds)"
        return try await UserManager.forScenario(options, serviceSettings: [setting]) { try await run(options, idle: idle, under: $0) }
    }

    private static func run(_ options: Options, idle: Duration, under manager: UserManager) async throws -> Goals {
        var goals = Goals("idle-exit")
        let cycles = try options.int("cycles", default: 200)
        let limit = try options.seconds("time-limit", default: 900)
        let clientCount = try options.int("clients", default: 2)
        let exitsBefore = idleExits(manager)
        let startsBefore = manager.logLines(containing: "ligasd started")

        let stop = Shared(false)
        let started = ContinuousClock.now
        let workers = (0..<clientCount).map { _ in
            Task {
                var tally = Tally()
                var sessions = 0
                var slowest: Duration = .zero
                while !stop.value {
                    // Gaps spread around the idle timeout: some shorter, some longer.
                    try? await Task.sleep(for: .milliseconds(Int64.random(in: 0...Int64(idle.seconds * 3000))))
                    let sessionStarted = ContinuousClock.now
                    await session(manager.socketPath, tally: &tally)
                    slowest = max(slowest, ContinuousClock.now - sessionStarted)
                    sessions += 1
                }
                tally.slowest = slowest
                return (tally, sessions)
            }
        }
        var lastReport = 0
        while idleExits(manager) - exitsBefore < cycles, ContinuousClock.now - started < limit {
            try await Task.sleep(for: .milliseconds(200))
            let exits = idleExits(manager) - exitsBefore
            if exits / 25 > lastReport / 25 { Report.progress("idle-exit: \(exits) of \(cycles) exit cycles") }
            lastReport = exits
        }
        stop.withLock { $0 = true }
        var tally = Tally()
        var sessions = 0
        for worker in workers {
            let (workerTally, workerSessions) = await worker.value
            tally.merge(workerTally)
            sessions += workerSessions
        }
        // A last question after the final exit: the socket must still start it.
        try await Task.sleep(for: idle * 3)
        var last = Tally()
        await session(manager.socketPath, tally: &last)

        let exits = idleExits(manager) - exitsBefore
        goals.figure("idle_exit_s", Report.seconds(idle))
        goals.figure("exit_cycles", exits)
        goals.figure("starts_logged", manager.logLines(containing: "ligasd started") - startsBefore)
        goals.figure("sessions", sessions)
        goals.figure("requests", tally.succeeded + tally.failed)
        goals.figure("failures", tally.failed)
        goals.figure("failure_kinds", Tally.describe(tally.failures))
        goals.figure("slowest_session_s", Report.seconds(tally.slowest))
        goals.figure("wall_s", Report.seconds(ContinuousClock.now - started))
        goals.check(exits >= cycles, "\(cycles) idle-exit cycles within \(limit) (\(exits))")
        goals.check(tally.failed == 0, "zero failures (\(tally.failed))")
        goals.check(last.failed == 0 && last.succeeded > 0, "ligasd is started again by its socket after the last exit")
        return goals
    }

    /// Exits for idleness so far, from ligasd's own log ("ligasd stopped" with reason idle).
    private static func idleExits(_ manager: UserManager) -> Int {
        manager.logLines(containing: "ligasd stopped", "=idle")
    }

    /// A fresh connection, one to three questions, close. Failures are not retried.
    private static func session(_ socketPath: String, tally: inout Tally) async {
        let questions = (0..<Int.random(in: 1...3)).map { _ in Question.random() }
        do {
            let client = try await within(.seconds(60), "connecting") {
                try await LigasClient.connect(socketPath: socketPath, agent: "ligas-stress")
            }
            defer { client.close() }
            for question in questions {
                do {
                    try await within(.seconds(60), "\(question)") { try await question.ask(client) }
                    tally.succeeded += 1
                } catch {
                    tally.fail(Failure(error), question: question)
                }
            }
        } catch {
            for question in questions { tally.fail(Failure(error), question: question) }
        }
    }
}
