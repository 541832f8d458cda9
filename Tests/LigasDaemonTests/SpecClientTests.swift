import Foundation
import LigasSampleDataLocation
import LigasTestSupport
import Testing

/// Protocol/example-client/ligas_client.py: a client written in Python from PROTOCOL.md and the
/// golden vectors alone (standard library only, its own CBOR). That it passes its self-test
/// against the real ligasd is the proof that the spec suffices for a client in another language;
/// each check asserts the outcome the spec defines (PROTOCOL.md section numbers in the script).
@Suite("A client written from PROTOCOL.md alone")
struct SpecClientTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Protocol/example-client/ligas_client.py")
    /// Debian's (scripts/install-deps installs python3).
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    @Test("The Python client's self-test passes against ligasd: handshake, every method, a verified stream, cancel, errors, limits, half-close")
    func selfTestPasses() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .file(root: BundledSampleData.baseURL) }
        let daemon = try await RunningDaemon(remote: server.baseURL)
        let outcome = await asyncResult {
            let run = try await CommandRun.run(Self.python, [Self.script.path, "--socket", daemon.socketPath, "selftest"], environment: [:])
            #expect(run.status == 0, "\(run.text)\(run.errorOutput)")
            #expect(run.text.contains(", 0 failed"), "\(run.text)")
            #expect(!run.text.contains("FAIL"), "\(run.text)")
        }
        _ = await daemon.stop()
        try await server.shutdown()
        try outcome.get()
    }

    @Test("The Python client encodes and decodes every golden vector byte for byte")
    func vectorsRoundTrip() async throws {
        let vectors = Self.script.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("vectors")
        let run = try await CommandRun.run(Self.python, [Self.script.path, "vectors", vectors.path], environment: [:])
        #expect(run.status == 0, "\(run.text)\(run.errorOutput)")
        #expect(run.text.contains(" passed, 0 failed"), "\(run.text)")
    }
}
