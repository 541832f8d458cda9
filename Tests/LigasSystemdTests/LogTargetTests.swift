import Foundation
@testable import LigasSystemd
import LigasTestSupport
import Logging
import Testing

struct LogTargetTests {
    let directory = TemporaryDirectory()
    var missingSocket: String { directory.url.appendingPathComponent("no-journal.socket").path }

    func existingSocket() throws -> String {
        let path = directory.url.appendingPathComponent("journal.socket").path
        _ = try UnixSocket.datagram().bind(to: path)
        return path
    }

    @Test("journal and stderr are taken as asked", arguments: [LogTarget.journal, .stderr])
    func explicitTargets(target: LogTarget) {
        #expect(target.resolved(journalSocketPath: missingSocket, journalStream: nil, standardErrorDescriptor: 2) == target)
    }

    @Test("auto picks the journal when journald's socket exists")
    func autoWithJournalSocket() throws {
        let socket = try existingSocket()
        #expect(LogTarget.auto.resolved(journalSocketPath: socket, journalStream: nil, standardErrorDescriptor: 2) == .journal)
    }

    @Test("auto falls back to stderr when there is no journal")
    func autoWithoutJournal() {
        #expect(LogTarget.auto.resolved(journalSocketPath: missingSocket, journalStream: nil, standardErrorDescriptor: 2) == .stderr)
    }

    @Test("auto picks the journal when JOURNAL_STREAM says stderr is connected to it")
    func autoWithJournalStream() throws {
        let stream = try CapturePipe()
        var status = stat()
        #expect(fstat(stream.writeEnd, &status) == 0)

        let target = LogTarget.auto.resolved(
            journalSocketPath: missingSocket, journalStream: "\(status.st_dev):\(status.st_ino)",
            standardErrorDescriptor: stream.writeEnd)

        #expect(target == .journal)
    }

    @Test("auto ignores a JOURNAL_STREAM that is not our stderr or is malformed", arguments: ["1:2", "", "garbage", "12", "1:2:3"])
    func autoWithForeignJournalStream(journalStream: String) throws {
        let stream = try CapturePipe()
        let target = LogTarget.auto.resolved(
            journalSocketPath: missingSocket, journalStream: journalStream, standardErrorDescriptor: stream.writeEnd)
        #expect(target == .stderr)
    }

    @Test("the handler factory makes the handler of the target with the identifier and level asked for")
    func handlerFactory() throws {
        let journal = LogTarget.journal.handlerFactory(syslogIdentifier: "ligasd-x", logLevel: .debug)("label", nil)
        let stderr = LogTarget.stderr.handlerFactory(logLevel: .error)("label", nil)

        let journald = try #require(journal as? JournaldLogHandler)
        #expect(journald.syslogIdentifier == "ligasd-x")
        #expect(journald.logLevel == .debug)
        #expect((stderr as? StderrLogHandler)?.logLevel == .error)
        #expect(LogTarget.journal.makeLogger(label: "ligasd").handler is JournaldLogHandler)
    }
}
