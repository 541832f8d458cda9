import Foundation
import LigasTestSupport
import Testing

/// The unit files in systemd/, checked by systemd's own tools.
@Suite("systemd unit files")
struct UnitFileTests {
    /// The units of `source` with `@bindir@` filled in for the binaries under test, in a fresh directory.
    static func installed(_ source: URL, into directory: TemporaryDirectory) throws -> URL {
        try UnitTemplates.install(from: source, bindir: Binaries.directory, into: directory.url)
        return directory.url
    }

    static func systemdAnalyze(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
        let output = directory.appendingPathComponent("analyze-\(UUID().uuidString).out")
        let status = try await Spawn.run(
            "/bin/systemd-analyze", arguments, environment: ChildEnvironment.inherited(overrides: environment),
            output: output)
        return (status, try String(contentsOf: output, encoding: .utf8))
    }

    @Test("systemd-analyze verify finds nothing to say about the system units")
    func verifySystemUnits() async throws {
        let directory = TemporaryDirectory()
        let units = try Self.installed(UnitTemplates.systemDirectory, into: directory)
        let result = try await Self.systemdAnalyze(["verify", units.appendingPathComponent("ligasd.socket").path, units.appendingPathComponent("ligasd.service").path], in: units)
        #expect(result.status == 0)
        #expect(result.output == "")
    }

    @Test("systemd-analyze verify finds nothing to say about the user units")
    func verifyUserUnits() async throws {
        let directory = TemporaryDirectory()
        let units = try Self.installed(UnitTemplates.userDirectory, into: directory)
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
        let units = try Self.installed(UnitTemplates.systemDirectory, into: directory)
        let result = try await Self.systemdAnalyze(["security", "--offline=true", "--no-pager", units.appendingPathComponent("ligasd.service").path], in: units)
        let line = try #require(result.output.split(separator: "\n").last { $0.contains("Overall exposure level") })
        let score = line.split(separator: " ").compactMap { Double($0) }.first
        #expect(score != nil)
        #expect((score ?? 10) <= 1.1, "\(line)")
    }
}
