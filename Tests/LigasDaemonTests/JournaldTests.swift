import Foundation
import Glibc
import LigasClient
import LigasProtocol
import LigasSampleDataLocation
import LigasTestSupport
import Testing

/// The real ligasd logging to a real journald (`--log-target journal`), read back with
/// `journalctl -o json`: the structured fields operators filter on, and no secret in them.
@Suite("ligasd's journal entries")
struct JournaldTests {
    static let apiKey = "s3cr3t-test-key"
    static let requestServed = "828ecda7d67d462d8ad4475c581a128c"
    static let imageStreamed = "9a149b2d037c4f4d99ed786b36ce986a"
    static let daemonStarted = "d55b505394e045239fdff22ef3208ad0"
    static let daemonStopped = "2c0154e5c5ee4ea7bc65fef9568b6402"

    /// Requests made by the journal test, in order, and what the daemon must log for each.
    struct Served {
        let method: String
        let arguments: String
        let source: String?
        let errorCode: String?
    }

    @Test("Each request leaves one 'request served' entry with its method, id, source, duration, client pid/uid and error code; the image stream, start and stop are logged too; the API key never")
    func structuredEntries() async throws {
        try await Journald.withRunning {
            let server = try await LoopbackHTTPServer.start { [sample = BundledSampleData.baseURL] _ in .file(root: sample) }
            let since = UInt64(Date().timeIntervalSince1970 * 1_000_000)
            let daemon = try await RunningDaemon(
                remote: server.baseURL, extra: ["--log-target", "journal", "--log-level", "trace"],
                environment: ["LIGASD_API_KEY": Self.apiKey])
            let outcome = await asyncResult { () async throws -> (bytes: Int, chunks: Int) in
                let client = try await daemon.client()
                defer { client.close() }
                _ = try await client.leagues()
                #expect(try await client.teams(league: "serie-a").source == .remote)
                #expect(try await client.teams(league: "serie-a").source == .cache)
                await #expect(throws: ClientError.self) { try await client.teams(league: "nope") }
                var received = (bytes: 0, chunks: 0)
                for try await chunk in try await client.image(.team("emelec")) {
                    received.bytes += chunk.count
                    received.chunks += 1
                }
                return received
            }
            #expect(await daemon.stop() == 0)
            try await server.shutdown()
            let received = try outcome.get()
            // The key was in use: the remote saw it.
            #expect(server.requests.contains { $0.headers["authorization"] == "Bearer \(Self.apiKey)" })

            // journald stores asynchronously: wait (bounded) for the last entry ligasd wrote.
            let entries = try await Journalctl.entries(matching: ["_PID=\(daemon.pid)", "SYSLOG_IDENTIFIER=ligasd"]) { records in
                records.contains { $0["MESSAGE_ID"] == Self.daemonStopped }
            }.filter { UInt64($0["__REALTIME_TIMESTAMP"] ?? "") ?? 0 >= since }  // not an older process with the same pid

            for entry in entries {
                #expect(entry["SYSLOG_IDENTIFIER"] == "ligasd")
                #expect(entry["PRIORITY"].flatMap(Int.init).map { (0...7).contains($0) } == true, "\(entry.fields)")
                #expect(entry["CODE_FILE"]?.isEmpty == false)
                #expect(entry["CODE_LINE"].flatMap(Int.init).map { $0 > 0 } == true)
                #expect(entry["CODE_FUNC"]?.isEmpty == false)
                let secrets = entry.fields.filter { field in field.value.contains { value in value.contains(Self.apiKey) } }.keys
                #expect(secrets.isEmpty, "the API key is in \(secrets.sorted())")
            }

            let served = entries.filter { $0["MESSAGE_ID"] == Self.requestServed }
            let expected = [
                Served(method: "leagues", arguments: "", source: "builtIn", errorCode: nil),
                Served(method: "teams", arguments: "league=serie-a", source: "remote", errorCode: nil),
                Served(method: "teams", arguments: "league=serie-a", source: "cache", errorCode: nil),
                Served(method: "teams", arguments: "league=nope", source: nil, errorCode: "notFound"),
            ]
            try #require(served.count == expected.count, "one entry per request: \(served.map(\.fields))")
            for (entry, request) in zip(served.sorted { Int($0["LIGAS_REQUEST_ID"] ?? "") ?? 0 < Int($1["LIGAS_REQUEST_ID"] ?? "") ?? 0 }, expected) {
                #expect(entry["MESSAGE"] == "request served")
                // An answer is a debug entry, an error an info one (README, "Troubleshooting").
                #expect(entry["PRIORITY"] == (request.errorCode == nil ? "7" : "6"))
                #expect(entry["LIGAS_METHOD"] == request.method)
                #expect(entry["LIGAS_ARGUMENTS"] == request.arguments)
                #expect(entry["LIGAS_SOURCE"] == request.source, "\(request.method) \(request.arguments)")
                #expect(entry["LIGAS_ERROR_CODE"] == request.errorCode)
                // With the error's words: the entry alone says what failed.
                #expect((entry["LIGAS_ERROR"] != nil) == (request.errorCode != nil), "\(entry.fields)")
                if request.errorCode != nil { #expect(entry["LIGAS_ERROR"]?.contains("nope") == true, "\(entry.fields)") }
                #expect(entry["LIGAS_DURATION_US"].flatMap(Int.init) != nil)
                #expect(entry["LIGAS_CLIENT_PID"] == String(getpid()))
                #expect(entry["LIGAS_CLIENT_UID"] == String(getuid()))
                #expect(entry["CODE_FILE"]?.hasSuffix("JournalRequestLog.swift") == true)
            }
            #expect(Set(served.compactMap { $0["LIGAS_REQUEST_ID"] }).count == expected.count, "distinct request ids")
            #expect(Set(served.compactMap { $0["LIGAS_CONNECTION"] }).count == 1, "all on the one connection")

            let streams = entries.filter { $0["MESSAGE_ID"] == Self.imageStreamed }
            try #require(streams.count == 1, "\(streams.map(\.fields))")
            let stream = streams[0]
            #expect(stream["MESSAGE"] == "image stream complete")
            #expect(stream["LIGAS_METHOD"] == "image")
            #expect(stream["LIGAS_ARGUMENTS"] == "team=emelec")
            #expect(stream["LIGAS_SOURCE"] == "remote")
            #expect(stream["LIGAS_BYTES"] == String(received.bytes))
            #expect(stream["LIGAS_CHUNKS"] == String(received.chunks))
            #expect(stream["LIGAS_REQUEST_ID"] != nil && stream["LIGAS_DURATION_US"] != nil)
            #expect(stream["LIGAS_CLIENT_PID"] == String(getpid()))

            let started = try #require(entries.first { $0["MESSAGE_ID"] == Self.daemonStarted })
            #expect(started["MESSAGE"] == "ligasd started")
            #expect(started["PRIORITY"] == "5")
            #expect(started["LIGAS_SOCKET_ACTIVATED"] == "false")
            #expect(started["LIGAS_CACHE"] == daemon.cachePath)
            let stopped = try #require(entries.first { $0["MESSAGE_ID"] == Self.daemonStopped })
            #expect(stopped["MESSAGE"] == "ligasd stopped")
            #expect(stopped["LIGAS_REASON"] == "SIGTERM")
        }
    }

    @Test("With the stderr target, the API key never reaches the log either")
    func apiKeyNotOnStderr() async throws {
        let server = try await LoopbackHTTPServer.start { [sample = BundledSampleData.baseURL] _ in .file(root: sample) }
        let daemon = try await RunningDaemon(
            remote: server.baseURL, extra: ["--log-level", "trace"], environment: ["LIGASD_API_KEY": Self.apiKey])
        let outcome = await asyncResult {
            let client = try await daemon.client()
            defer { client.close() }
            _ = try await client.players(team: "emelec")
            await #expect(throws: ClientError.self) { try await client.players(team: "nope") }
            for try await _ in try await client.image(.league("serie-a")) {}
        }
        #expect(await daemon.stop() == 0)
        try await server.shutdown()
        try outcome.get()
        #expect(server.requests.contains { $0.headers["authorization"] == "Bearer \(Self.apiKey)" })
        let log = daemon.child.errorOutput
        #expect(log.contains("request served"))
        #expect(log.contains("ligasd stopped"))
        #expect(!log.contains(Self.apiKey))
    }

    @Test("At the default level a request answered with its value leaves no entry; an error and an image stream do")
    func defaultLevel() async throws {
        let server = try await LoopbackHTTPServer.start { [sample = BundledSampleData.baseURL] _ in .file(root: sample) }
        let daemon = try await RunningDaemon(remote: server.baseURL)
        let outcome = await asyncResult {
            let client = try await daemon.client()
            defer { client.close() }
            _ = try await client.teams(league: "serie-a")
            _ = try await client.teams(league: "serie-a")
            await #expect(throws: ClientError.self) { try await client.teams(league: "nope") }
            for try await _ in try await client.image(.league("serie-a")) {}
        }
        #expect(await daemon.stop() == 0)
        try await server.shutdown()
        try outcome.get()
        let lines = daemon.child.errorOutput.split(separator: "\n")
        let served = lines.filter { $0.contains("request served") }
        #expect(served.count == 1, "\(served)")
        #expect(served.first?.contains("LIGAS_ERROR_CODE=notFound") == true)
        #expect(served.first?.contains("LIGAS_ERROR=") == true, "\(served)")
        #expect(lines.contains { $0.hasPrefix("info image stream complete") })
    }
}
