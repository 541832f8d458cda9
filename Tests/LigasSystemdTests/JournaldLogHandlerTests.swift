import Foundation
import LigasSystemd
import LigasTestSupport
import Logging
import Testing

extension ProcessWideStateTests {
    /// End to end through a real journald: log with `JournaldLogHandler`, read back with `journalctl`.
    /// Each test logs under its own `SYSLOG_IDENTIFIER`, so it only ever sees its own entries.
    @Suite struct JournaldLogHandlerTests {
        let identifier = "ligasd-test-\(UUID().uuidString.lowercased())"

        func makeLogger(metadataProvider: Logger.MetadataProvider? = nil) -> Logger {
            var logger = Logger(label: "ligasd.test") { [identifier] _ in
                JournaldLogHandler(syslogIdentifier: identifier, logLevel: .trace, metadataProvider: metadataProvider)
            }
            logger.logLevel = .trace
            return logger
        }

        @Test("writes the message, priority, identifier and code location of a log call to the journal")
        func writesStandardFields() async throws {
            let logger = makeLogger()

            let entry = try await Journald.withRunning {
                logger.warning("Remote unreachable, serving the cache"); let line = #line
                return (try await Journalctl.entries(identifier: identifier).first!, line)
            }

            let (record, line) = entry
            #expect(record["MESSAGE"] == "Remote unreachable, serving the cache")
            #expect(record["PRIORITY"] == "4")
            #expect(record["SYSLOG_IDENTIFIER"] == identifier)
            #expect(record["CODE_FILE"] == #fileID)
            #expect(record["CODE_LINE"] == String(line))
            #expect(record["CODE_FUNC"] == #function)
        }

        @Test("maps every log level to its syslog priority")
        func mapsLevelsToPriorities() async throws {
            let logger = makeLogger()

            let records = try await Journald.withRunning {
                for level in Logger.Level.allCases { logger.log(level: level, "\(level)") }
                return try await Journalctl.entries(identifier: identifier, atLeast: Logger.Level.allCases.count)
            }

            let priorities = Dictionary(uniqueKeysWithValues: records.map { ($0["MESSAGE"] ?? "", $0["PRIORITY"] ?? "") })
            #expect(priorities == [
                "trace": "7", "debug": "7", "info": "6", "notice": "5", "warning": "4", "error": "3", "critical": "2",
            ])
        }

        @Test("turns metadata into sanitised LIGAS_ fields and passes MESSAGE_ID through")
        func writesMetadataFields() async throws {
            var logger = makeLogger(metadataProvider: Logger.MetadataProvider { ["trace-id": "t-7", "method": "from provider"] })
            logger[metadataKey: "request-id"] = "r-42"
            logger[metadataKey: "method"] = "from handler"

            let record = try await Journald.withRunning {
                logger.info(
                    "Request served",
                    metadata: LigasMessageID.requestServed.metadata.merging([
                        "method": "leagues",
                        "LIGAS_CACHE": "hit",
                        "2nd try": "yes",
                        "teams": ["emelec", "aucas"],
                        "日本": "dropped: no letter or digit left",
                    ]) { $1 })
                return try await Journalctl.entries(identifier: identifier).first!
            }

            #expect(record["MESSAGE_ID"] == "828ecda7d67d462d8ad4475c581a128c")
            #expect(record["LIGAS_METHOD"] == "leagues")
            #expect(record.fields["LIGAS_METHOD"]?.count == 1)
            #expect(record["LIGAS_REQUEST_ID"] == "r-42")
            #expect(record["LIGAS_TRACE_ID"] == "t-7")
            #expect(record["LIGAS_CACHE"] == "hit")
            #expect(record["LIGAS_2ND_TRY"] == "yes")
            #expect(record["LIGAS_TEAMS"] == "[emelec, aucas]")
            #expect(record.fields.keys.filter { $0.hasPrefix("LIGAS_") }.sorted() == [
                "LIGAS_2ND_TRY", "LIGAS_CACHE", "LIGAS_METHOD", "LIGAS_REQUEST_ID", "LIGAS_TEAMS", "LIGAS_TRACE_ID",
            ])
        }

        @Test("keeps values with newlines, quotes and non-printable bytes intact")
        func keepsMultiLineAndBinaryValues() async throws {
            let logger = makeLogger()
            let multiLine = "first line\nsecond line\n\n  indented \"quoted\" line"
            let binary = "tab\there\u{0}nul\u{1B}[31mescape"

            let record = try await Journald.withRunning {
                logger.error("Decoding failed\non two lines", metadata: ["payload": "\(multiLine)", "raw": "\(binary)"])
                return try await Journalctl.entries(identifier: identifier).first!
            }

            #expect(record["MESSAGE"] == "Decoding failed\non two lines")
            #expect(record["LIGAS_PAYLOAD"] == multiLine)
            #expect(record["LIGAS_RAW"] == binary)
        }

        @Test(
            "writes the entry to stderr instead when journald has gone away",
            .enabled(if: !Journald.isAcceptingEntries(), "a journald is running; this test needs none"))
        func fallsBackToStderr() async throws {
            let stderr = try CapturePipe()
            let logger = Logger(label: "ligasd.test") { [identifier] _ in
                JournaldLogHandler(syslogIdentifier: identifier, fallbackFileDescriptor: stderr.writeEnd)
            }

            // A socket left behind by a stopped journald refuses the entry (ECONNREFUSED). (With no
            // socket at all, libsystemd drops entries silently by design; `LogTarget.auto` picks stderr then.)
            try await Journald.withStaleSocket {
                logger.error("Journal gone", metadata: ["method": "leagues", "MESSAGE_ID": "\(LigasMessageID.clientProtocolError.hex)"])
            }

            #expect(stderr.readAll() == "error Journal gone LIGAS_METHOD=leagues MESSAGE_ID=dc552866e5b8418585ecea5f75ac89dc\n")
        }

        @Test("writes the error of a log call as LIGAS_ERROR")
        func writesError() async throws {
            let logger = makeLogger()

            let record = try await Journald.withRunning {
                logger.error("Cache write failed", error: DiskFull())
                return try await Journalctl.entries(identifier: identifier).first!
            }

            #expect(record["LIGAS_ERROR"] == "disk full")
        }
    }
}

struct DiskFull: Error, CustomStringConvertible {
    var description: String { "disk full" }
}
