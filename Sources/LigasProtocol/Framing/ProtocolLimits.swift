/// Protocol versions this library speaks and the default limits it announces.
public enum ProtocolVersion {
    /// The version this library writes after negotiation.
    public static let current: UInt8 = 1
    /// Every version this library can speak, for the hello exchange.
    public static let supported: ClosedRange<UInt8> = 1...1
}

public enum ProtocolLimits {
    /// Largest frame (header + payload, excluding the 4-byte length) accepted by default.
    public static let defaultMaxFrameSize = 1 << 20
    /// What a client announces by default: results (a whole league's matches) may outgrow the
    /// server's own 1 MiB receive limit, and a frame the client cannot take is never delivered.
    public static let defaultClientMaxFrameSize = 16 << 20
    /// Smallest `maxFrameSize` a peer may announce: room for any error or stream-end frame.
    public static let minimumMaxFrameSize = 4096
    /// Default size of raw stream chunks (never more than the peer's max frame size - 8): one
    /// piece of an image as ligasd's cache stores it (see PROTOCOL.md §8 for why not less).
    public static let defaultChunkSize = 256 << 10
    /// Default number of requests a server accepts in flight on one connection.
    public static let defaultMaxInFlight = 32
}
