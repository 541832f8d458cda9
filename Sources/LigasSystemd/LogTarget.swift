import Glibc
import Logging

/// Where the daemon's log goes. `auto` picks the journal when one is there, stderr otherwise.
public enum LogTarget: String, Sendable, CaseIterable {
    case journal, stderr, auto

    public static let journalSocketPath = "/run/systemd/journal/socket"

    /// `.journal` or `.stderr`, never `.auto`.
    public func resolved() -> LogTarget {
        resolved(
            journalSocketPath: Self.journalSocketPath,
            journalStream: getenv("JOURNAL_STREAM").map { String(cString: $0) },
            standardErrorDescriptor: STDERR_FILENO)
    }

    /// `auto` means the journal when journald's socket exists, or when systemd says (through
    /// `JOURNAL_STREAM`, "device:inode" of the stream it connected) that our stderr *is* the
    /// journal: then structured entries beat plain lines on the same journal.
    func resolved(journalSocketPath: String, journalStream: String?, standardErrorDescriptor: Int32) -> LogTarget {
        switch self {
        case .journal, .stderr: return self
        case .auto:
            if access(journalSocketPath, F_OK) == 0 { return .journal }
            if let journalStream, Self.stream(journalStream, matches: standardErrorDescriptor) { return .journal }
            return .stderr
        }
    }

    static func stream(_ journalStream: String, matches fileDescriptor: Int32) -> Bool {
        let parts = journalStream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(fileDescriptor, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// A handler factory for `LoggingSystem.bootstrap(_:metadataProvider:)`. The target is resolved
    /// once, here, so every logger of the process writes to the same place.
    public func handlerFactory(
        syslogIdentifier: String = JournaldLogHandler.defaultSyslogIdentifier,
        logLevel: Logger.Level = .info
    ) -> @Sendable (String, Logger.MetadataProvider?) -> any LogHandler {
        let target = resolved()
        return { _, metadataProvider in
            switch target {
            case .journal, .auto:
                JournaldLogHandler(syslogIdentifier: syslogIdentifier, logLevel: logLevel, metadataProvider: metadataProvider)
            case .stderr:
                StderrLogHandler(logLevel: logLevel, metadataProvider: metadataProvider)
            }
        }
    }

    /// A logger writing to this target, without touching the global `LoggingSystem`.
    public func makeLogger(
        label: String,
        syslogIdentifier: String = JournaldLogHandler.defaultSyslogIdentifier,
        logLevel: Logger.Level = .info,
        metadataProvider: Logger.MetadataProvider? = nil
    ) -> Logger {
        let factory = handlerFactory(syslogIdentifier: syslogIdentifier, logLevel: logLevel)
        return Logger(label: label) { label in factory(label, metadataProvider) }
    }
}
