/// Live counters of the server, for `status` and the tests.
public struct ServerStatistics: Sendable, Hashable {
    public var openConnections = 0
    public var inFlightRequests = 0
    /// Requests finished: answered (errors and refusals included, undecodable ones too),
    /// cancelled by the client, or ended by their connection closing. With `inFlightRequests`,
    /// every request read.
    public var requestsServed: UInt64 = 0
    public var connectionsAccepted: UInt64 = 0
    public var connectionsRefused: UInt64 = 0
    /// Streams waiting for a slow client to read (backpressure in effect).
    public var pausedStreams = 0

    public init() {}
}
