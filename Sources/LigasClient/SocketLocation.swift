import FoundationEssentials
import Glibc

/// Where ligas-client looks for the daemon: `LIGAS_SOCKET`, else the system socket if it
/// exists, else the user's `$XDG_RUNTIME_DIR/ligasd.sock`.
public enum SocketLocation {
    public static let system = "/run/ligasd/ligasd.sock"

    public static func `default`(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["LIGAS_SOCKET"], !explicit.isEmpty { return explicit }
        if FileManager.default.fileExists(atPath: system) { return system }
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(getuid())"
        return runtime + "/ligasd.sock"
    }
}
