import Foundation
import Testing

/// What README promises of `ligas-bench`'s command line, tried on the built binary: misuse is
/// refused with exit 64 before anything is measured, and a bench that fails keeps its logs.
@Suite("ligas-bench's command line")
struct BenchCommandTests {
    @Test(
        "A misplaced subcommand, missing arguments, an unknown option, a count of 0 or a logo other than 1 or 20 MiB: exit 64",
        arguments: [
            ["--quick", "memory"],
            ["throughput"],
            ["--no-such-option"],
            ["unary", "/nonexistent.sock", "0"],
            ["throughput", "/nonexistent.sock", "0"],
            ["streams", "5", "7"],
            ["cold", "0"],
        ])
    func misuseIsRefused(_ arguments: [String]) async throws {
        // Through CommandRun: a bench that took misuse for a run would be stopped, not left measuring.
        let bench = try await CommandRun.run(Binaries.url("ligas-bench"), arguments, environment: [:])
        #expect(bench.status == 64, "stderr: \(bench.errorOutput)")
        #expect(bench.errorOutput.contains("Usage:") || bench.errorOutput.contains("Error:"), "stderr: \(bench.errorOutput)")
    }

    @Test("A bench whose ligasd never answers fails, and keeps its working directory with ligasd's log, and names it")
    func failedBenchKeepsItsLogs() async throws {
        let bench = try await CommandRun.run(Binaries.url("ligas-bench"), ["memory", "--ligasd", "/bin/false"], environment: [:])
        #expect(bench.status != 0)
        let marker = "failed; the logs are in "
        let line = try #require(bench.errorOutput.split(separator: "\n").first { $0.contains(marker) }, "stderr: \(bench.errorOutput)")
        let kept = URL(fileURLWithPath: String(line[line.range(of: marker)!.upperBound...]))
        defer { try? FileManager.default.removeItem(at: kept) }
        let files = try FileManager.default.contentsOfDirectory(atPath: kept.path)
        #expect(files.contains("ligasd.log"), "kept: \(files)")
    }
}
