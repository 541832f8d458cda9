import Foundation
import LigasClient
import LigasProtocol

/// Unary round trips on one connection, one at a time: p50, p99, mean.
enum Latency {
    static func library(socketPath: String, count: Int) async throws {
        let client = try await LigasClient.connect(socketPath: socketPath, agent: "ligas-bench")
        defer { client.close() }
        try await measure("unary_ping", count: count) { try await client.ping() }
        try await measure("unary_leagues", count: count) { _ = try await client.leagues() }
        _ = try await client.teams(league: BenchFixture.league)  // the first may come from the remote
        let teams = try await client.teams(league: BenchFixture.league)
        guard teams.source == .cache else {
            throw BlockingClient.Failure(description: "teams came from \(teams.source), not the cache")
        }
        try await measure("unary_teams", count: count, extra: ["teams": teams.value.count]) {
            _ = try await client.teams(league: BenchFixture.league)
        }
    }

    /// The same teams round trip from a blocking socket client: the daemon's share of it. The
    /// answers are checked to be the same payload, and decoded once, outside the timing: decoding
    /// 24 teams is the client's work, not the daemon's (the C peer does not parse its answer).
    static func blocking(socketPath: String, count: Int) throws {
        let client = try BlockingClient(socketPath: socketPath)
        let call = Call(Methods.Teams.self, TeamsArguments(league: BenchFixture.league))
        let expected = try client.call(call)
        let teams = try decodeTeams(expected).value.count
        guard teams > 0 else { throw BlockingClient.Failure(description: "teams: none") }
        for _ in 0..<count / 10 { _ = try client.call(call) }
        var samples = Samples(capacity: count)
        let bytes = expected.count
        for _ in 0..<count {
            let start = ContinuousClock.now
            let payload = try client.call(call)
            samples.add(since: start)
            guard payload == expected else { throw BlockingClient.Failure(description: "teams: another answer") }
        }
        report("unary_teams_blocking_client", samples, count: count, extra: ["payload_bytes": bytes, "teams": teams])
    }

    static func decodeTeams(_ payload: [UInt8]) throws -> TeamsResult {
        try CBORDecoder().decode(TeamsResult.self, from: payload)
    }

    private static func measure(
        _ name: String, count: Int, extra: KeyValuePairs<String, Int> = [:], _ body: () async throws -> Void
    ) async throws {
        for _ in 0..<count / 10 { try await body() }
        var samples = Samples(capacity: count)
        for _ in 0..<count {
            let start = ContinuousClock.now
            try await body()
            samples.add(since: start)
        }
        report(name, samples, count: count, extra: extra)
    }

    private static func report(_ name: String, _ samples: Samples, count: Int, extra: KeyValuePairs<String, Int>) {
        let extras = extra.map { " \($0.key)=\($0.value)" }.joined()
        Report.line("RESULT ligasd \(name) n=\(count) p50_us=\(Report.fixed(samples.percentile(0.5))) p99_us=\(Report.fixed(samples.percentile(0.99))) mean_us=\(Report.fixed(samples.mean))\(extras)")
    }
}
