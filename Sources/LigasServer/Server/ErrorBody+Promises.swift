import LigasProtocol

/// The error bodies the server builds for the rules of PROTOCOL.md §6, in one place so the
/// server and the golden vectors (which take them from here) say exactly the same bytes.
extension ErrorBody {
    /// Sent in place of an answer whose frame would exceed the client's `maxFrameSize`.
    ///
    /// Fits any client by construction: fixed text plus two numbers of at most 20 digits is
    /// well under 200 bytes of payload, and no client may announce less than 4096.
    public static func resultTooLarge(bytes: Int, maxFrameSize: Int) -> ErrorBody {
        ErrorBody(
            code: .resultTooLarge, message: "the answer does not fit the client's maxFrameSize",
            details: ["bytes": String(bytes), "maxFrameSize": String(maxFrameSize)])
    }

    /// A request reused the id of one still in flight: fatal (id 0), since no later frame for
    /// that id could be told apart.
    public static func requestIDInFlight(_ requestID: UInt32) -> ErrorBody {
        ErrorBody(
            code: .badFrame, message: "request id \(requestID) is already in flight",
            details: ["requestId": String(requestID)])
    }

    /// A request read once the daemon began to stop (PROTOCOL.md §9).
    static let stopping = ErrorBody(code: .shuttingDown, message: "ligasd is stopping; reconnect")

    /// A request still in flight when the shutdown grace ran out, sent before the connection
    /// closes: unlike one answered `stopping`, it was started, so whether it was carried out is
    /// unknown (PROTOCOL.md §6).
    public static func cutOff(grace: Duration) -> ErrorBody {
        ErrorBody(code: .cutOff, message: "ligasd stopped before this request finished: its shutdown grace of \(grace.secondsText) s ran out")
    }

    /// A request past the connection's cap on requests in flight.
    static func tooManyInFlight(max: Int) -> ErrorBody {
        ErrorBody(code: .tooManyRequests, message: "more than \(max) requests in flight")
    }

    /// Which connection cap refused a newcomer (sent with id 0 before closing).
    public enum ConnectionCap: String, Sendable {
        /// All connections of the server.
        case connections
        /// Connections of one local user (the peer's uid, from `SO_PEERCRED`).
        case connectionsPerUID
    }

    public static func tooManyConnections(_ cap: ConnectionCap, max: Int) -> ErrorBody {
        let whose = cap == .connections ? "" : " for this user"
        return ErrorBody(
            code: .tooManyRequests, message: "too many connections\(whose) (\(max))",
            details: ["cap": cap.rawValue, "max": String(max)])
    }
}
