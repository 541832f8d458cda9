import Logging

/// Writes request entries through swift-log: the server's default, and what ligasd uses when it
/// logs to stderr. Each entry's fields become metadata (`request-id`, `method`, `arguments`, …),
/// tagged with `tags` (ligasd: its journal MESSAGE_IDs).
public struct LoggerRequestLog: RequestLog {
    private let logger: Logger
    private let tags: ServerLogTags

    public init(logger: Logger, tags: ServerLogTags = ServerLogTags()) {
        self.logger = logger
        self.tags = tags
    }

    public func write(_ entry: RequestLogEntry) {
        guard logger.logLevel <= entry.level else { return }
        var metadata: Logger.Metadata = [
            "connection": "\(entry.connectionID)",
            "request-id": "\(entry.requestID)", "method": "\(entry.request.method.name)",
            "arguments": "\(ArgumentsText.of(entry.request.call))", "cache-policy": "\(entry.request.cache.rawValue)",
            "duration-us": "\(entry.durationMicroseconds)",
        ]
        if let peer = entry.peer {
            metadata["client-pid"] = "\(peer.pid)"
            metadata["client-uid"] = "\(peer.uid)"
        }
        if let source = entry.source { metadata["source"] = "\(source.rawValue)" }
        if let code = entry.errorCode { metadata["error-code"] = "\(code)" }
        if let message = entry.errorMessage { metadata["error"] = "\(message)" }
        if let stream = entry.stream {
            metadata["bytes"] = "\(stream.bytes)"
            metadata["chunks"] = "\(stream.chunks)"
            metadata["outcome"] = "\(stream.outcome.rawValue)"
            metadata.tag(tags.imageStreamed)
        } else {
            metadata.tag(tags.requestServed)
        }
        logger.log(level: entry.level, "\(entry.message)", metadata: metadata)
    }
}
