import CSystemd
import Glibc
import Logging

/// A swift-log handler that writes structured entries to journald with `sd_journal_sendv`.
///
/// Every entry has `MESSAGE`, `PRIORITY`, `SYSLOG_IDENTIFIER`, `CODE_FILE`, `CODE_LINE` and
/// `CODE_FUNC`. Metadata becomes `LIGAS_*` fields (see `JournalFieldName`), except `MESSAGE_ID`,
/// which is passed through so `journalctl MESSAGE_ID=…` and the catalog work (see `LigasMessageID`).
/// If journald refuses an entry (its socket is left over from a journald that stopped, or sending
/// fails otherwise), that entry goes to stderr as a `StderrLogHandler` line instead of being lost.
/// With no socket at all, libsystemd drops entries silently by design; `LogTarget.auto` chooses
/// stderr in that case.
public struct JournaldLogHandler: LogHandler {
    public static let defaultSyslogIdentifier = "ligasd"

    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level
    public let syslogIdentifier: String
    private let fallbackFileDescriptor: Int32

    /// - Parameter fallbackFileDescriptor: where entries go, as stderr lines, while journald cannot be
    ///   reached. Not owned: the handler never closes it.
    public init(
        syslogIdentifier: String = JournaldLogHandler.defaultSyslogIdentifier,
        logLevel: Logger.Level = .info,
        metadataProvider: Logger.MetadataProvider? = nil,
        fallbackFileDescriptor: Int32 = STDERR_FILENO
    ) {
        self.syslogIdentifier = syslogIdentifier
        self.logLevel = logLevel
        self.metadataProvider = metadataProvider
        self.fallbackFileDescriptor = fallbackFileDescriptor
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let message = event.message.description
        let effective = EffectiveMetadata(handler: metadata, provider: metadataProvider, explicit: event.metadata)

        var entry = JournalEntry(estimatedSize: 192 + message.utf8.count)
        entry.append("MESSAGE", message)
        entry.append("PRIORITY", event.level.syslogPriority)
        entry.append("SYSLOG_IDENTIFIER", syslogIdentifier)
        entry.append("CODE_FILE", event.file)
        entry.append("CODE_LINE", event.line)
        entry.append("CODE_FUNC", event.function)
        effective.forEach { key, value in entry.appendMetadata(key: key, value: value) }
        if let error = event.error, !effective.contains(EffectiveMetadata.errorKey) {
            entry.appendMetadata(key: EffectiveMetadata.errorKey, text: String(describing: error))
        }

        if entry.send() < 0 {
            let line = LogLine.bytes(
                level: event.level, message: message, metadata: effective, error: event.error,
                codeLocation: nil)
            FileDescriptorWriter.write(line, to: fallbackFileDescriptor)
        }
    }
}
