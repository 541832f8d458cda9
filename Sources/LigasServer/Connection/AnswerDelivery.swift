import LigasProtocol

/// What became of a frame the server meant to send about a request.
enum AnswerDelivery: Equatable, Sendable {
    /// Queued for the client as it was.
    case queued
    /// It could not be sent as it was (too large for the client's `maxFrameSize`, above all):
    /// an error with this code went in its place, and ended the request.
    case replaced(by: ErrorCode)
    /// Nothing was sent: the request was cancelled, or the connection is closed or closing.
    case dropped
}

extension RequestLogEntry {
    /// Notes how the request's final frame went, so the entry says what the client got. Returns
    /// false when nothing reached the client (the request leaves no entry then).
    mutating func record(_ delivery: AnswerDelivery) -> Bool {
        switch delivery {
        case .queued: return true
        case .replaced(let code): failure = Failure(code: code); return true  // its words are not known here
        case .dropped: return false
        }
    }
}
