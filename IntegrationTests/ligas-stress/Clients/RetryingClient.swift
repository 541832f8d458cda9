import Foundation
import LigasClient
import LigasTestSupport

/// A client that keeps one connection, and when a request fails because the connection went
/// away, reconnects and asks once more (counted as a retry). A second failure is a failure.
struct RetryingClient {
    let socketPath: String
    let timeout: Duration
    private var client: LigasClient?
    private(set) var tally = Tally()

    init(socketPath: String, timeout: Duration) {
        self.socketPath = socketPath
        self.timeout = timeout
    }

    mutating func ask(_ question: Question) async {
        let started = ContinuousClock.now
        defer { tally.slowest = max(tally.slowest, ContinuousClock.now - started) }
        guard let first = await attempt(question) else {
            tally.succeeded += 1
            return
        }
        guard first.isConnectionLevel else { return tally.fail(first, question: question) }
        tally.retried += 1
        tally.retryReasons["\(first)", default: 0] += 1
        if let second = await attempt(question) {
            tally.fail(second, question: question)
        } else {
            tally.succeeded += 1
        }
    }

    /// One try: nil on success. A failed connection is dropped, so the next try reconnects.
    private mutating func attempt(_ question: Question) async -> Failure? {
        let connection: LigasClient
        do {
            connection = try await connected()
        } catch {
            return Failure(error).during("hello")
        }
        do {
            try await within(timeout, "\(question)") { try await question.ask(connection) }
            return nil
        } catch {
            let failure = Failure(error)
            if failure.isConnectionLevel || failure == .timedOut {
                client?.close()
                client = nil
            }
            return failure
        }
    }

    private mutating func connected() async throws -> LigasClient {
        if let client { return client }
        let path = socketPath
        let fresh = try await within(timeout, "connecting to \(path)") {
            try await LigasClient.connect(socketPath: path, agent: "ligas-stress")
        }
        client = fresh
        return fresh
    }

    func close() { client?.close() }
}
