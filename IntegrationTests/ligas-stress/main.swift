import Foundation
import Glibc

// ligas-stress: the reliability suite of issue #6. `scripts/stress` builds it and runs one
// scenario per invocation:
//
//     ligas-stress SCENARIO [--key value ...]
//
// Each scenario drives a real ligasd over its real Unix socket, prints one
// `STRESS <scenario> key=value ...` line with its figures, and exits 0 only if every goal was
// met (1 when a goal was missed, 2 on bad usage, 130 when interrupted).

let scenarios: [String: @Sendable (Options) async throws -> Goals] = [
    "load": LoadScenario.run,
    "restart": RestartScenario.run,
    "idle-exit": IdleExitScenario.run,
    "crash": CrashScenario.run,
    "remote-faults": RemoteFaultsScenario.run,
    "hostile": HostileScenario.run,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let scenario = scenarios[name] else {
    FileHandle.standardError.write(Data("""
        usage: ligas-stress SCENARIO [--key value ...]
        scenarios: \(scenarios.keys.sorted().joined(separator: ", ")) (fuzz is run by scripts/stress)

        """.utf8))
    exit(2)
}
let options: Options
do {
    options = try Options(name: name, arguments: Array(arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("ligas-stress: \(error)\n".utf8))
    exit(2)
}

// Ctrl-C or `timeout`: kill every process this run started, then leave.
Children.exitOnSignals()
Report.progress("ligas-stress \(name): starting (ligasd: \(options.ligasd))")

let goals: Goals
do {
    goals = try await scenario(options)
} catch {
    Report.progress("\(name): aborted: \(error)")
    Children.killAll()
    Report.line(name, ["result": "fail", "aborted": "\(error)"])
    exit(1)
}
Children.killAll()
goals.report()
exit(goals.met ? 0 : 1)
