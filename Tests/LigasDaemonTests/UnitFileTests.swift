import Foundation
import LigasTestSupport
import Testing

/// The unit files in systemd/, checked by systemd's own tools.
@Suite("systemd unit files")
struct UnitFileTests {
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../systemd").standardized

    /// The units with `@bindir@` filled in (as the install does), in a fresh directory.
    static func installed(_ subdirectory: String?, into directory: TemporaryDirectory) throws -> URL {
        let from = subdirectory.map { source.appendingPathComponent($0) } ?? source
        for unit in ["ligasd.socket", "ligasd.service"] {
            let text = try String(contentsOf: from.appendingPathComponent(unit), encoding: .utf8)
                .replacingOccurrences(of: "@bindir@", with: Binaries.directory.path)
            try text.write(to: directory.url.appendingPathComponent(unit), atomically: true, encoding: .utf8)
        }
        return directory.url
    }

    static func systemdAnalyze(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
        let output = directory.appendingPathComponent("analyze-\(UUID().uuidString).out")
        let status = try await Spawn.run(
            "/bin/systemd-analyze", arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            output: output)
        return (status, try String(contentsOf: output, encoding: .utf8))
    }

    @Test("systemd-analyze verify finds nothing to say about the system units")
    func verifySystemUnits() async throws {
        let directory = TemporaryDirectory()
        let units = try Self.installed(nil, into: directory)
        let result = try await Self.systemdAnalyze(["verify", units.appendingPathComponent("ligasd.socket").path, units.appendingPathComponent("ligasd.service").path], in: units)
        #expect(result.status == 0)
        #expect(result.output == "")
    }

    @Test("systemd-analyze verify finds nothing to say about the user units")
    func verifyUserUnits() async throws {
        let directory = TemporaryDirectory()
        let units = try Self.installed("user", into: directory)
        let runtime = directory.url.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let result = try await Self.systemdAnalyze(
            ["--user", "verify", units.appendingPathComponent("ligasd.socket").path, units.appendingPathComponent("ligasd.service").path], in: units, environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(result.status == 0)
        #expect(result.output == "")
    }

    @Test("The hardened system service's exposure is 1.1 or lower")
    func exposure() async throws {
        let directory = TemporaryDirectory()
        let units = try Self.installed(nil, into: directory)
        let result = try await Self.systemdAnalyze(["security", "--offline=true", "--no-pager", units.appendingPathComponent("ligasd.service").path], in: units)
        let line = try #require(result.output.split(separator: "\n").last { $0.contains("Overall exposure level") })
        let score = line.split(separator: " ").compactMap { Double($0) }.first
        #expect(score != nil)
        #expect((score ?? 10) <= 1.1, "\(line)")
    }
}
