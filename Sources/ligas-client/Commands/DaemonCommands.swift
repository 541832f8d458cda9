import ArgumentParser
import FoundationEssentials
import LigasClient
import LigasProtocol

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show ligasd's version, uptime and counters.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let status = try await options.run { try await $0.status() }
        if options.json { return try Printing.json(status) }
        var table = Table("FIELD", "VALUE")
        table.add("version", status.version)
        table.add("protocol", "\(status.protocolVersion)")
        table.add("uptime", "\(status.uptimeSeconds) s")
        table.add("connections", "\(status.openConnections)")
        table.add("in flight", "\(status.inFlightRequests)")
        table.add("requests served", "\(status.requestsServed)")
        table.add("cache hits", "\(status.cacheHits)")
        table.add("cache misses", "\(status.cacheMisses)")
        table.add("remote failures", "\(status.remoteFailures)")
        for quota in status.quota ?? [] {
            var text = "\(quota.used) used, \(quota.remaining) left of \(quota.budget) (\(quota.month))"
            if let left = quota.reportedRemaining {
                text += "; provider says \(left) left" + (quota.reportedLimit.map { " of \($0)" } ?? "")
            }
            table.add("\(quota.provider) requests", text)
        }
        Printing.table(table, source: nil)
    }
}

struct DescribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe", abstract: "Print ligasd's interface: methods, types and error codes.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let description = try await options.run { try await $0.describe() }
        try Printing.json(description)
    }
}

struct PingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ping", abstract: "Check that ligasd answers, and how fast.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let elapsed = try await options.run { client in
            let start = ContinuousClock.now
            try await client.ping()
            return ContinuousClock.now - start
        }
        let microseconds = Int64(elapsed / .microseconds(1))
        if options.json { return try Printing.json(["roundTripMicroseconds": microseconds]) }
        Terminal.standardOutput.write("pong in \(microseconds) µs\n")
    }
}
