import Foundation
import LigasClient
import LigasProtocol

/// Image bytes streamed from the daemon's cache, in MiB/s, each over one connection, after
/// `defaultWarmUps` downloads that are not timed (the peers' stream figures, too, come after 10
/// fetches).
enum Streaming {
    static let defaultWarmUps = 10

    /// Through LigasClient (which also checks the SHA-256 the daemon sends at the end).
    static func library(
        socketPath: String, url: URL, repetitions: Int, warmUps: Int = defaultWarmUps
    ) async throws -> (bytes: Int, mibPerSecond: Double) {
        let client = try await LigasClient.connect(socketPath: socketPath, agent: "ligas-bench")
        defer { client.close() }
        for _ in 0..<warmUps { _ = try await download(url, from: client) }
        var total = 0
        let start = ContinuousClock.now
        for _ in 0..<repetitions { total += try await download(url, from: client) }
        return (total, mibPerSecond(total, since: start))
    }

    /// One download of `url` from ligasd's cache (it fails if the image came from anywhere else);
    /// returns its byte count.
    static func download(_ url: URL, from client: LigasClient) async throws -> Int {
        let download = try await client.image(.url(url))
        guard download.header.source == .cache else {
            throw BlockingClient.Failure(description: "image came from \(download.header.source), not the cache")
        }
        var bytes = 0
        for try await chunk in download { bytes += chunk.count }
        return bytes
    }

    /// From a blocking client that reads as fast as it can.
    static func blocking(socketPath: String, url: URL, repetitions: Int) throws -> (bytes: Int, mibPerSecond: Double) {
        let client = try BlockingClient(socketPath: socketPath)
        for _ in 0..<defaultWarmUps { _ = try client.download(.url(url)) }
        var total = 0
        let start = ContinuousClock.now
        for _ in 0..<repetitions { total += try client.download(.url(url)) }
        return (total, mibPerSecond(total, since: start))
    }

    static func mibPerSecond(_ bytes: Int, since start: ContinuousClock.Instant) -> Double {
        Double(bytes) / 1_048_576 / (Samples.microseconds(ContinuousClock.now - start) / 1e6)
    }
}
