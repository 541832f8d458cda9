/// First frame in each direction. The client lists every version it speaks; the server
/// answers with exactly one, the version chosen for the connection. Each side announces
/// the limits *it* enforces on what it receives.
public struct Hello: Codable, Sendable, Hashable {
    /// Client: all supported versions. Server reply: the single chosen version.
    public var versions: [UInt8]
    /// Largest frame (header + payload) the sender accepts.
    public var maxFrameSize: UInt32
    /// Requests the sender accepts in flight at once (server) or intends to use (client).
    public var maxInFlight: UInt32
    /// Preferred stream chunk size; the server uses the smaller of both sides' values.
    public var chunkSize: UInt32
    /// Free text naming the peer, e.g. "ligasd/0.3.0"; for logs only.
    public var agent: String

    /// The defaults are a client's: a server announces its own limits explicitly.
    public init(
        versions: [UInt8] = Array(ProtocolVersion.supported),
        maxFrameSize: UInt32 = UInt32(ProtocolLimits.defaultClientMaxFrameSize),
        maxInFlight: UInt32 = UInt32(ProtocolLimits.defaultMaxInFlight),
        chunkSize: UInt32 = UInt32(ProtocolLimits.defaultChunkSize),
        agent: String
    ) {
        self.versions = versions
        self.maxFrameSize = maxFrameSize
        self.maxInFlight = maxInFlight
        self.chunkSize = chunkSize
        self.agent = agent
    }
}

/// What both sides agreed on in the hello exchange.
public struct NegotiatedSession: Sendable, Hashable {
    public var version: UInt8
    /// Largest frame this side may *send* (the peer's announced limit).
    public var peerMaxFrameSize: Int
    /// Requests the client may have in flight (the server's announced limit).
    public var maxInFlight: Int
    /// Raw bytes per stream chunk frame.
    public var chunkSize: Int
}

public enum Handshake {
    /// Server side: picks the highest common version and builds the reply hello.
    /// Throws `unsupportedVersion` or, for a hello with limits out of range, `badFrame`
    /// (either way: send it with request id 0, then close).
    public static func accept(
        _ client: Hello, server: Hello, supported: ClosedRange<UInt8> = ProtocolVersion.supported
    ) throws(ErrorBody) -> (reply: Hello, session: NegotiatedSession) {
        guard let version = client.versions.filter(supported.contains).max() else {
            let message = "no common protocol version; server speaks \(supported.lowerBound)...\(supported.upperBound)"
            let details = ["supported": supported.map(String.init).joined(separator: ",")]
            throw ErrorBody(code: .unsupportedVersion, message: message, details: details)
        }
        try validateLimits(client)
        var reply = server
        reply.versions = [version]
        return (reply, session(version, client: client, server: server, peer: client))
    }

    /// Client side: checks the server's reply against what the client offered.
    public static func complete(sent: Hello, received: Hello) throws(ErrorBody) -> NegotiatedSession {
        guard received.versions.count == 1, let version = received.versions.first, sent.versions.contains(version) else {
            throw ErrorBody(code: .unsupportedVersion, message: "server chose a version the client did not offer")
        }
        try validateLimits(received)
        return session(version, client: sent, server: received, peer: received)
    }

    /// A hello with limits out of range is a malformed hello: `badFrame` (PROTOCOL.md §8),
    /// with `details.path` naming the field.
    private static func validateLimits(_ hello: Hello) throws(ErrorBody) {
        let limits = [("maxFrameSize", hello.maxFrameSize, ProtocolLimits.minimumMaxFrameSize), ("chunkSize", hello.chunkSize, 1),
                      ("maxInFlight", hello.maxInFlight, 1)]
        for (field, value, minimum) in limits where value < minimum {
            let message = minimum == 1 ? "\(field) must be positive" : "\(field) \(value) is below \(minimum)"
            throw ErrorBody(code: .badFrame, message: message, details: ["path": field])
        }
    }

    /// What one side agreed on with `peer`. Chunks never exceed what the client can receive
    /// in one frame.
    private static func session(_ version: UInt8, client: Hello, server: Hello, peer: Hello) -> NegotiatedSession {
        NegotiatedSession(
            version: version, peerMaxFrameSize: Int(peer.maxFrameSize), maxInFlight: Int(server.maxInFlight),
            chunkSize: min(Int(client.chunkSize), Int(server.chunkSize), Int(client.maxFrameSize) - FrameHeader.size)
        )
    }
}
