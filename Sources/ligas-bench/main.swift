import Foundation
import LigasClient
import LigasProtocol

/// ligas-bench: round-trip latency and throughput against a running ligasd.
/// Usage: ligas-bench SOCKET [N]
let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: ligas-bench SOCKET [N]\n".utf8))
    exit(64)
}
let socketPath = arguments[1]
let count = arguments.count > 2 ? Int(arguments[2]) ?? 2000 : 2000

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func measure(_ name: String, _ body: @Sendable (LigasClient) async throws -> Void) async throws {
    let client = try await LigasClient.connect(socketPath: socketPath)
    defer { client.close() }
    for _ in 0..<200 { try await body(client) }
    var samples: [Double] = []
    samples.reserveCapacity(count)
    for _ in 0..<count {
        let start = ContinuousClock.now
        try await body(client)
        let elapsed = ContinuousClock.now - start
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    samples.sort()
    let mean = samples.reduce(0, +) / Double(samples.count)
    print(String(format: "RESULT ligasd %@ n=%d p50_us=%.1f p99_us=%.1f mean_us=%.1f", name, count, percentile(samples, 0.5), percentile(samples, 0.99), mean))
}

try await measure("unary_ping") { try await $0.ping() }
try await measure("unary_leagues") { _ = try await $0.leagues() }
try await measure("unary_teams") { _ = try await $0.teams(league: "serie-a") }
