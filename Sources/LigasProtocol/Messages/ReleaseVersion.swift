/// The release of ligasd, ligas-client and the client library, which ship together: what
/// `ligasd --version`, `ligas-client --version` and `status`'s `version` print, declared once.
/// (Not the wire protocol's version, which is `ProtocolVersion`.)
public enum ReleaseVersion {
    public static let current = "0.4.0"
}
