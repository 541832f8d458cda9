import Foundation

/// The project's systemd units, `systemd/` (the system manager's) and `systemd/user/` (a user
/// manager's), are templates: `ExecStart=` says `@bindir@`, which scripts/install fills with the
/// directory it installs the binaries to. Tests that verify or run the units fill it the same way,
/// here, with the directory of the binaries under test.
public enum UnitTemplates {
    public static let systemDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../systemd").standardized
    public static let userDirectory = systemDirectory.appendingPathComponent("user")
    static let units = ["ligasd.socket", "ligasd.service"]

    /// Writes the `units` of `sourceDirectory` into `directory`, with `@bindir@` replaced by `bindir`.
    public static func install(from sourceDirectory: URL, bindir: URL, into directory: URL) throws {
        for unit in units {
            let text = try String(contentsOf: sourceDirectory.appendingPathComponent(unit), encoding: .utf8)
                .replacingOccurrences(of: "@bindir@", with: bindir.path)
            try text.write(to: directory.appendingPathComponent(unit), atomically: true, encoding: .utf8)
        }
    }
}
