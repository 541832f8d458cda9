import Foundation

/// What a process of the harness holds for itself, never for a child: the systemd variables (the
/// unit tests of LigasSystemd set them while other tests run, and a harness may run under systemd)
/// and terminal preferences.
public enum ChildEnvironment {
    public static let removed: Set<String> = [
        "NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID", "NO_COLOR",
    ]

    /// This process's environment without `removed`, with `overrides` on top.
    public static func inherited(overrides: [String: String] = [:]) -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !removed.contains($0.key) }.merging(overrides) { $1 }
    }
}
