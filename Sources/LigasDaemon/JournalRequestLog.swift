import LigasProtocol
import LigasServer
import LigasSystemd
import Logging

/// ligasd's request log when it logs to the journal: each request's entry goes straight to
/// journald with its fixed fields prepared once (`JournalTemplate`). The fields are the ones the
/// journal catalog documents (`LIGAS_REQUEST_ID`, `LIGAS_METHOD`, …), as swift-log would name
/// them. An entry journald does not take goes to `fallback` (stderr) instead of being lost.
struct JournalRequestLog: RequestLog {
    let isEnabled: Bool
    private let served: JournalTemplate
    private let streamed: JournalTemplate
    private let fallback: any RequestLog

    init(logLevel: Logger.Level, fallback: any RequestLog) {
        isEnabled = logLevel <= .info
        self.fallback = fallback
        func template(_ id: LigasMessageID, line: UInt = #line) -> JournalTemplate {
            JournalTemplate([
                "PRIORITY": "\(Logger.Level.info.syslogPriority)", "SYSLOG_IDENTIFIER": JournaldLogHandler.defaultSyslogIdentifier,
                JournalFieldName.messageID: id.hex, "CODE_FILE": #fileID, "CODE_LINE": "\(line)", "CODE_FUNC": "write(_:)",
            ])
        }
        served = template(.requestServed)
        streamed = template(.imageStreamed)
    }

    func write(_ entry: RequestLogEntry) {
        let sent = (entry.stream == nil ? served : streamed).send { fields in
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
            if let stream = entry.stream {
                fields.append("LIGAS_BYTES", stream.bytes)
                fields.append("LIGAS_CHUNKS", stream.chunks)
                fields.append("LIGAS_OUTCOME", stream.outcome.rawValue)
            }
            fields.append("LIGAS_DURATION_US", entry.durationMicroseconds)
        }
        if !sent { fallback.write(entry) }
    }
}
