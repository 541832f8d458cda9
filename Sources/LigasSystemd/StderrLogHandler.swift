import Glibc
import Logging

/// Logs one line per entry to stderr (or any file descriptor): the fallback when there is no journal,
/// and what a developer running the daemon in a terminal reads. See `LogLine` for the format.
public struct StderrLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level

    private let fileDescriptor: Int32
    private let includesCodeLocation: Bool

    /// - Parameters:
    ///   - fileDescriptor: where lines go; stderr unless a test or caller says otherwise. Not owned:
    ///     the handler never closes it.
    ///   - includesCodeLocation: append `CODE_FILE=… CODE_LINE=…` to every line (off by default to
    ///     keep lines short; the journal always has them).
    public init(
        logLevel: Logger.Level = .info,
        metadataProvider: Logger.MetadataProvider? = nil,
        fileDescriptor: Int32 = STDERR_FILENO,
        includesCodeLocation: Bool = false
    ) {
        self.logLevel = logLevel
        self.metadataProvider = metadataProvider
        self.fileDescriptor = fileDescriptor
        self.includesCodeLocation = includesCodeLocation
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let line = LogLine.bytes(
            level: event.level,
            message: event.message.description,
            metadata: EffectiveMetadata(handler: metadata, provider: metadataProvider, explicit: event.metadata),
            error: event.error,
            codeLocation: includesCodeLocation ? (event.file, event.line) : nil)
        FileDescriptorWriter.write(line, to: fileDescriptor)
    }
}
