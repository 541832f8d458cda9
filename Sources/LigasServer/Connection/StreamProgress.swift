import LigasProtocol

/// What a stream has sent so far and how it ended, for its log entry: the same for a stream a
/// request task sends (`RequestExchange`) and one the connection's queue sends itself.
struct StreamProgress {
    var summary = RequestLogEntry.StreamSummary()
    var failure: RequestLogEntry.Failure?

    /// Whether the stream goes on after `delivery`; if not, how it ended.
    mutating func goesOn(after delivery: AnswerDelivery) -> Bool {
        switch delivery {
        case .queued: return true
        case .replaced(let code): summary.outcome = .failed; failure = .init(code: code)
        case .dropped: summary.outcome = .cancelled
        }
        return false
    }

    /// The same for a frame carrying `chunkBytes` of the stream's bytes (nil for the header): they
    /// count once the frame is queued, so the log says what the client was sent.
    mutating func goesOn(after delivery: AnswerDelivery, chunkBytes: Int?) -> Bool {
        guard goesOn(after: delivery) else { return false }
        if let chunkBytes {
            summary.bytes += chunkBytes
            summary.chunks += 1
        }
        return true
    }

    /// The stream ended with `error`, sent after its last chunk.
    mutating func failed(with error: ErrorBody) {
        summary.outcome = .failed
        failure = .init(error)
    }

    func record(in entry: inout RequestLogEntry) {
        entry.stream = summary
        entry.failure = failure
    }
}
