import Dispatch
import LigasProtocol
import LigasServer
import LigasSystemd
import Logging
import Synchronization

/// ligasd's request log when it logs to the journal: each request's entry goes to journald with
/// its fixed fields prepared once (`JournalTemplate`), in batches.
///
/// Why batches: a datagram to an idle journald wakes it, and on these machines waking another
/// process costs more than answering a cached request. So `write` only queues the entry; a
/// queue of the log's own lays the entries out and sends them at most `delay` later, one after
/// the other, while journald is awake anyway. Entries reach the journal within `delay` (or at
/// `flush`, which the server calls when it stops); a crash loses at most that much.
///
/// The fields are the ones the journal catalog documents (`LIGAS_REQUEST_ID`, `LIGAS_METHOD`, …),
/// as swift-log would name them. An entry journald does not take goes to `fallback` (stderr).
final class JournalRequestLog: RequestLog {
    private let logLevel: Logger.Level
    /// By message and priority.
    private let templates: [Key: JournalTemplate]
    private let fallback: any RequestLog
    private let delay: Duration
    private let pending = Mutex<[RequestLogEntry]>([])
    private let queue = DispatchQueue(label: "ligasd.journal", target: .global())

    /// Past this many queued entries a batch goes at once, without waiting for `delay`.
    static let batchSize = 256

    init(logLevel: Logger.Level, fallback: any RequestLog, delay: Duration = .milliseconds(5)) {
        self.logLevel = logLevel
        self.fallback = fallback
        self.delay = delay
        var templates: [Key: JournalTemplate] = [:]
        for streams in [false, true] {
            for level in [Logger.Level.debug, .info] {
                templates[Key(streams: streams, level: level)] = JournalTemplate([
                    "PRIORITY": "\(level.syslogPriority)", "SYSLOG_IDENTIFIER": JournaldLogHandler.defaultSyslogIdentifier,
                    JournalFieldName.messageID: (streams ? LigasMessageID.imageStreamed : .requestServed).hex,
                    "CODE_FILE": #fileID, "CODE_LINE": "\(#line)", "CODE_FUNC": "send(_:)",
                ])
            }
        }
        self.templates = templates
    }

    private struct Key: Hashable {
        let streams: Bool
        let level: Logger.Level
    }

    func write(_ entry: RequestLogEntry) {
        guard logLevel <= entry.level else { return }
        let count = pending.withLock { pending in
            pending.append(entry)
            return pending.count
        }
        if count == 1 {
            queue.asyncAfter(deadline: .now() + .nanoseconds(delay.wholeNanoseconds)) { [self] in flush() }
        } else if count == Self.batchSize {
            queue.async { [self] in flush() }
        }
    }

    /// Sends everything queued, now.
    func flush() {
        let batch = pending.withLock { pending in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        for entry in batch where !send(entry) { fallback.write(entry) }
    }

    private func send(_ entry: RequestLogEntry) -> Bool {
        templates[Key(streams: entry.stream != nil, level: entry.level)]!.send { fields in
            fields.append("MESSAGE", entry.message)
            fields.append("LIGAS_CONNECTION", entry.connectionID)
            if let peer = entry.peer {
                fields.append("LIGAS_CLIENT_PID", peer.pid)
                fields.append("LIGAS_CLIENT_UID", peer.uid)
            }
            fields.append("LIGAS_REQUEST_ID", entry.requestID)
            fields.append("LIGAS_METHOD", entry.request.method.name)
            fields.append("LIGAS_ARGUMENTS", ArgumentsText.of(entry.request.call))
            fields.append("LIGAS_CACHE_POLICY", entry.request.cache.rawValue)
            if let source = entry.source { fields.append("LIGAS_SOURCE", source.rawValue) }
            if let code = entry.errorCode { fields.append("LIGAS_ERROR_CODE", code.rawValue) }
            if let message = entry.errorMessage { fields.append("LIGAS_ERROR", message) }
            if let stream = entry.stream {
                fields.append("LIGAS_BYTES", stream.bytes)
                fields.append("LIGAS_CHUNKS", stream.chunks)
                fields.append("LIGAS_OUTCOME", stream.outcome.rawValue)
            }
            fields.append("LIGAS_DURATION_US", entry.durationMicroseconds)
        }
    }
}
