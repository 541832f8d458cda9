import Foundation
import LigasClient
import LigasProtocol
import LigasTestSupport

/// Issue #6, hostile clients: random bytes, valid frames in random order, handshakes that never
/// complete, 10,000 cancels, a request id reused while in flight, deadlines of 0, and a client
/// that reads one byte per second — all at once, while a well-behaved client asks continuously.
/// Goals: the well-behaved client sees no error; every attack meets its own expectation; at the
/// end ligasd is alive, answers, holds no leftover connection or request, and its memory is
/// bounded.
enum HostileScenario {
    static func run(_ options: Options) async throws -> Goals {
        var goals = Goals("hostile")
        let slowReaderTime = try options.seconds("slow-reader-seconds", default: 20)
        let cancelCount = try options.int("cancels", default: 10_000)
        let memoryBound = try options.int("rss-bound-mib", default: 192)
        let remote = try await HostileRemote(sampleData: options.sampleData)
        let daemon = try await StressDaemon.start(
            options, directory: options.workDirectory.appendingPathComponent("daemon"), remote: remote.baseURL.absoluteString)
        let socket = daemon.socketPath

        // Warm the cache as a normal day would, then measure.
        let warm = try await daemon.client()
        for team in Question.teamIDs { try await Question.image(.team(team)).ask(warm) }
        for team in Question.teamIDs { _ = try await warm.players(team: team) }
        warm.close()
        let before = daemon.memory
        let sampler = PeakSampler.memory(of: daemon.pid, every: .milliseconds(100))

        let stop = Shared(false)
        let wellBehaved = Task { await askContinuously(daemon, until: stop) }
        try await Task.sleep(for: .seconds(1))

        // Connections: well under the default cap of 256, so nothing here is refused for that.
        let mediumImage = remote.mediumImageURL
        let bigImage = remote.bigImageURL
        let attacks: [(String, @Sendable () throws -> AttackResult)] = [
            ("random_bytes", { try HostileAttacks.randomBytes(socket: socket, connections: 100, closeWithin: .seconds(10)) }),
            ("random_order", { try HostileAttacks.randomOrder(socket: socket, connections: 40, framesEach: 30) }),
            ("no_handshake", { try HostileAttacks.neverHandshake(socket: socket, connections: 64, closeWithin: .seconds(10)) }),
            ("cancels", { try HostileAttacks.cancels(socket: socket, count: cancelCount) }),
            ("reused_id", { try HostileAttacks.reusedID(socket: socket, rounds: 20, mediumImageURL: mediumImage) }),
            ("deadline0", { try HostileAttacks.deadlineZero(socket: socket, count: 1000) }),
            ("slow_reader", { try HostileAttacks.slowReader(socket: socket, imageURL: bigImage, duration: slowReaderTime) }),
        ]
        let started = ContinuousClock.now
        let results = await withTaskGroup(of: AttackResult.self) { group in
            for (name, attack) in attacks {
                group.addTask {
                    do {
                        return try await offThePool("hostile-\(name)") { Result { try attack() } }.get()
                    } catch {
                        var result = AttackResult(name)
                        result.problem("the attack itself failed: \(error)")
                        return result
                    }
                }
            }
            var results: [AttackResult] = []
            for await result in group { results.append(result) }
            return results
        }
        let attackTime = ContinuousClock.now - started
        stop.withLock { $0 = true }
        let tally = await wellBehaved.value

        // The end: alive, answering, and nothing left behind by the attackers.
        let alive = !daemon.process.hasExited
        var leftovers = "unknown"
        var answering = false
        if alive, let client = try? await daemon.client() {
            answering = (try? await within(.seconds(10), "ping") { try await client.ping() }) != nil
            let deadline = ContinuousClock.now + .seconds(15)
            while let status = try? await within(.seconds(10), "status", { try await client.status() }) {
                leftovers = "connections:\(status.openConnections),in_flight:\(status.inFlightRequests)"
                if status.openConnections <= 1 && status.inFlightRequests <= 1 { break }
                guard ContinuousClock.now < deadline else { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            client.close()
        }
        let after = daemon.memory
        let peak = sampler.stop()
        let exitStatus = await daemon.stop()

        goals.figure("attack_s", Report.seconds(attackTime))
        for result in results.sorted(by: { $0.name < $1.name }) {
            for (key, value) in result.figures { goals.figure(key, value) }
            goals.check(result.problems.isEmpty, "\(result.name): \(result.problems.first ?? "")\(result.problems.count > 1 ? " (+\(result.problems.count - 1) more)" : "")")
        }
        goals.figure("good_requests", tally.succeeded + tally.failed)
        goals.figure("good_errors", tally.failed)
        goals.figure("good_error_kinds", Tally.describe(tally.failures))
        goals.figure("good_slowest_s", Report.seconds(tally.slowest))
        goals.figure("alive", alive)
        goals.figure("answering", answering)
        goals.figure("leftovers", leftovers)
        goals.figure("rss_before_mib", Report.mebibytes(kibibytes: before?.residentKiB ?? 0))
        goals.figure("rss_after_mib", Report.mebibytes(kibibytes: after?.residentKiB ?? 0))
        goals.figure("rss_peak_mib", Report.mebibytes(kibibytes: max(peak, after?.peakKiB ?? 0)))
        goals.check(tally.failed == 0, "the well-behaved client saw no error (\(tally.failed))")
        goals.check(tally.succeeded > 0, "the well-behaved client was answered")
        goals.check(alive && answering, "ligasd is alive and answering at the end")
        goals.check(leftovers.hasPrefix("connections:1,") || leftovers.hasPrefix("connections:0,"),
                    "no connection or request left behind (\(leftovers))")
        goals.check(max(peak, after?.peakKiB ?? 0) <= memoryBound << 10, "ligasd's peak RSS within \(memoryBound) MiB")
        goals.check(exitStatus == 0, "ligasd stops cleanly afterwards (exit \(exitStatus))")
        return goals
    }

    /// The well-behaved client: one connection, one question after another, each bounded.
    private static func askContinuously(_ daemon: StressDaemon, until stop: Shared<Bool>) async -> Tally {
        var tally = Tally()
        var client: LigasClient?
        while !stop.value {
            let question = Question.random()
            let started = ContinuousClock.now
            do {
                if client == nil { client = try await daemon.client() }
                let connected = client!
                try await within(.seconds(10), "\(question)") { try await question.ask(connected) }
                tally.succeeded += 1
            } catch {
                let failure = Failure(error)
                tally.fail(failure, question: question)
                if failure.isConnectionLevel || failure == .timedOut {
                    client?.close()
                    client = nil
                }
            }
            tally.slowest = max(tally.slowest, ContinuousClock.now - started)
        }
        client?.close()
        return tally
    }
}
