import LigasProtocol

/// Every resource a client can make the server spend is capped here. Each cap ends in a
/// clean refusal: a named error frame, then (for connection-level caps) a close.
public struct ServerLimits: Sendable {
    public var maxConnections = 256
    /// Connections of one local user (uid from `SO_PEERCRED`), so one user's runaway client cannot
    /// take every slot. Half the global cap: everyone else, root's tools included, keeps the other
    /// half, while one user still gets far more than any client needs (one multiplexed connection).
    public var maxConnectionsPerUID = 128
    /// Requests in flight per connection (`tooManyRequests` beyond it), announced in hello.
    public var maxInFlightPerConnection = ProtocolLimits.defaultMaxInFlight
    /// Largest frame accepted (`frameTooLarge` and close beyond it), announced in hello.
    public var maxFrameSize = ProtocolLimits.defaultMaxFrameSize
    public var chunkSize = ProtocolLimits.defaultChunkSize
    /// Time a new connection has to send its hello.
    public var handshakeTimeout: Duration = .seconds(5)
    /// A connection with nothing in flight and no frame for this long is closed.
    public var idleConnectionTimeout: Duration = .seconds(300)
    /// Unread output a connection may pile up; past it the client is not reading and is dropped.
    public var maxOutputBytes = 8 << 20
    /// Streams pause while this much output is unread: backpressure for slow readers.
    public var streamHighWater = 512 << 10
    /// After the shutdown grace, how long a connection's socket has to take what was queued for
    /// it and its requests' `cutOff`s before it is closed anyway (a client that does not read).
    public var cutOffDeliveryLimit: Duration = .seconds(1)
    /// How long the connections' thread, having served a request, waits for the next one before
    /// it goes back to Dispatch (`EventLoop`): a thread a client's request keeps, for that long.
    public var linger: Duration = .microseconds(200)

    public init() {}
}

