import Foundation
import LigasClient
import LigasProtocol
import LigasTestSupport

/// Issue #6, remote faults: a loopback remote that is down, answers 500, stalls beyond the
/// daemon's timeout, sends invalid JSON, a truncated body, an endless body or a 2 GiB
/// Content-Length. For each, with an empty and with a warm cache, every question gets the
/// documented answer — the cache where the use case falls back to it, else the named error —
/// within a bounded time, with ligasd's resident memory bounded.
enum RemoteFaultsScenario {
    enum Expectation: Sendable, Equatable, CustomStringConvertible {
        case source(ResultSource)
        case error(ErrorCode)

        var description: String {
            switch self {
            case .source(let source): "from:\(source.rawValue)"
            case .error(let code): "error:\(code)"
            }
        }
    }

    struct Case: Sendable {
        let name: String
        let question: Question
        let cache: CachePolicy
        let expected: Expectation
    }

    static func run(_ options: Options) async throws -> Goals {
        var goals = Goals("remote-faults")
        let timeBound = try options.seconds("time-bound", default: 15)
        let memoryBound = try options.int("rss-bound-mib", default: 192)
        let faults = try options.string("faults").map { names in
            try names.split(separator: ",").map { name in
                guard let fault = RemoteFault(rawValue: String(name)) else { throw Options.UsageError(description: "unknown fault \(name)") }
                return fault
            }
        } ?? RemoteFault.allCases
        let work = options.workDirectory

        var mismatches = 0
        var cases = 0
        var slowestOverall: Duration = .zero
        var peakOverall = 0
        for fault in faults {
            for warm in [false, true] {
                let label = "\(fault.rawValue)_\(warm ? "warm" : "empty")"
                let remote = try await FaultRemote(sampleData: options.sampleData)
                let directory = work.appendingPathComponent(label)
                // Down with an empty cache: a dead address from the start.
                let deadURL = deadRemoteURL()
                let remoteURL = fault == .down && !warm ? deadURL : remote.baseURL.absoluteString
                var daemon = try await StressDaemon.start(options, directory: directory, remote: remoteURL)
                let testCases: [Case]
                if warm {
                    // By team: resolved from the cached teams, so it works whatever the remote's address.
                    let image = Question.image(.team("emelec"))
                    let client = try await daemon.client()
                    _ = try await client.teams(league: "serie-a")
                    _ = try await client.matches(league: "serie-a")
                    try await image.ask(client)
                    client.close()
                    testCases = [
                        Case(name: "teams", question: .teams("serie-a"), cache: .default, expected: .source(.cache)),
                        Case(name: "teams-refresh", question: .teams("serie-a"), cache: .refresh, expected: .error(fault.expectedError)),
                        Case(name: "matches", question: .matches("serie-a"), cache: .default, expected: .source(.cache)),
                        Case(name: "image", question: image, cache: .default, expected: .source(.cache)),
                    ]
                } else {
                    let image = Question.image(.url(URL(string: remoteURL)!.appendingPathComponent("images/teams/emelec.png")))
                    testCases = [
                        Case(name: "teams", question: .teams("serie-a"), cache: .default, expected: .error(fault.expectedError)),
                        Case(name: "matches", question: .matches("serie-a"), cache: .default, expected: .error(fault.expectedError)),
                        Case(name: "image", question: image, cache: .default, expected: .error(fault.expectedError)),
                    ]
                }
                if fault == .down && warm {
                    // Down after warming: the same cache and the same remote address, where nothing
                    // listens any more. (Not another address: ligasd takes a new address for a new
                    // source, and drops the old one's feeds at start: README, "Behaviour, in short".)
                    await daemon.stop()
                    try await remote.server.shutdown()
                    daemon = try await StressDaemon.start(options, directory: directory, remote: remoteURL, logName: "ligasd-down.log")
                } else if fault != .down {
                    remote.fail(fault)
                }

                let sampler = PeakSampler.memory(of: daemon.pid, every: .milliseconds(50))
                let asked = daemon
                let results = await withTaskGroup(of: (Case, Expectation?, Duration).self) { group in
                    for testCase in testCases {
                        group.addTask { await ask(testCase, daemon: asked, limit: timeBound + .seconds(30)) }
                    }
                    var results: [(Case, Expectation?, Duration)] = []
                    for await result in group { results.append(result) }
                    return results
                }
                let sampledPeak = sampler.stop()
                let peak = max(sampledPeak, daemon.memory?.peakKiB ?? 0)
                let alive = !daemon.process.hasExited
                await daemon.stop()
                try? await remote.server.shutdown()

                var slowest: Duration = .zero
                for (testCase, got, elapsed) in results {
                    cases += 1
                    slowest = max(slowest, elapsed)
                    let outcome = got?.description ?? "no-answer"
                    if got != testCase.expected {
                        mismatches += 1
                        goals.check(false, "\(label) \(testCase.name): expected \(testCase.expected), got \(outcome)")
                    }
                    goals.check(elapsed <= timeBound, "\(label) \(testCase.name) answered within \(timeBound) (\(Report.seconds(elapsed)) s)")
                    Report.progress("remote-faults: \(label) \(testCase.name) [\(testCase.cache.rawValue)] → \(outcome) in \(Report.seconds(elapsed)) s")
                }
                goals.figure("\(label)_max_s", Report.seconds(slowest))
                goals.figure("\(label)_hwm_mib", Report.mebibytes(kibibytes: peak))
                goals.check(peak <= memoryBound << 10, "\(label): ligasd's peak RSS within \(memoryBound) MiB (\(Report.mebibytes(kibibytes: peak)))")
                goals.check(alive, "\(label): ligasd still running")
                slowestOverall = max(slowestOverall, slowest)
                peakOverall = max(peakOverall, peak)
            }
        }
        goals.figure("cases", cases)
        goals.figure("mismatches", mismatches)
        goals.figure("max_s", Report.seconds(slowestOverall))
        goals.figure("max_hwm_mib", Report.mebibytes(kibibytes: peakOverall))
        goals.figure("time_bound_s", Report.seconds(timeBound))
        goals.figure("rss_bound_mib", memoryBound)
        return goals
    }

    /// One question on its own connection: what came back, and how long it took.
    private static func ask(_ testCase: Case, daemon: StressDaemon, limit: Duration) async -> (Case, Expectation?, Duration) {
        let started = ContinuousClock.now
        do {
            let client = try await daemon.client()
            defer { client.close() }
            let source = try await within(limit, testCase.name) { try await testCase.question.ask(client, cache: testCase.cache) }
            return (testCase, source.map(Expectation.source), ContinuousClock.now - started)
        } catch {
            let failure = Failure(error)
            if case .named(let code) = failure { return (testCase, .error(code), ContinuousClock.now - started) }
            Report.progress("remote-faults: \(testCase.name): \(failure)")
            return (testCase, nil, ContinuousClock.now - started)
        }
    }
}
