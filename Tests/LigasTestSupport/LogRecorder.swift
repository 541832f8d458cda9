import Logging

/// A swift-log handler that keeps every message, for asserting on what was logged.
public final class LogRecorder: Sendable {
    public struct Entry: Sendable {
        public let level: Logger.Level
        public let message: String
        public let metadata: Logger.Metadata
    }

    private let entries = Shared<[Entry]>([])

    public init() {}

    public var logger: Logger {
        Logger(label: "test") { _ in Handler(recorder: self) }
    }

    public var all: [Entry] { entries.value }
    public var messages: [String] { all.map(\.message) }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.entries.withLock {
                $0.append(Entry(level: event.level, message: event.message.description, metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
            }
        }
    }
}
