/// Builds frames into a caller-owned buffer (so a writer can batch several frames in
/// one `write`). `maxFrameSize` is the *peer's* announced limit: a frame that would
/// exceed it is refused with `FrameError.frameTooLarge` and nothing is appended.
public struct FrameEncoder: Sendable {
    public var maxFrameSize: Int
    public var version: UInt8

    public init(maxFrameSize: Int = ProtocolLimits.defaultMaxFrameSize, version: UInt8 = ProtocolVersion.current) {
        self.maxFrameSize = maxFrameSize
        self.version = version
    }

    /// Appends a frame whose payload is `payload` encoded as CBOR.
    public func append<Payload: Encodable>(
        _ kind: FrameKind, requestID: UInt32, flags: FrameFlags = [], payload: Payload, to out: inout [UInt8]
    ) throws {
        let header = try FrameHeader(validating: version, kind, flags: flags.rawValue, requestID: requestID)
        let start = out.count
        out.append(contentsOf: [0, 0, 0, 0])
        header.append(to: &out)
        do {
            try CBOREncoder().encode(payload, into: &out)
            let length = out.count - start - 4
            guard length <= maxFrameSize else { throw FrameError.frameTooLarge(length: length, limit: maxFrameSize) }
            out.withUnsafeMutableBytes { $0.storeBytes(of: UInt32(length).bigEndian, toByteOffset: start, as: UInt32.self) }
        } catch {
            out.removeSubrange(start...)
            throw error
        }
    }

    /// Appends a frame whose payload is `bytes` as they are (stream chunks, cancel, encoded
    /// answers). Inlinable, so that callers in other modules copy their bytes as the type they
    /// are: unspecialized, the copy of a cached answer looked up generic metadata for each call.
    @inlinable
    public func appendRaw(
        _ kind: FrameKind, requestID: UInt32, flags: FrameFlags = [], bytes: some Collection<UInt8>, to out: inout [UInt8]
    ) throws(FrameError) {
        try appendRawHead(kind, requestID: requestID, flags: flags, payloadCount: bytes.count, to: &out)
        out.append(contentsOf: bytes)
    }

    /// The length and header of a raw frame whose payload has `payloadCount` bytes, without the
    /// payload: a server can send a stream chunk's own storage right after it, uncopied.
    public func appendRawHead(_ kind: FrameKind, requestID: UInt32, flags: FrameFlags, payloadCount: Int, to out: inout [UInt8]) throws(FrameError) {
        let header = try FrameHeader(validating: version, kind, flags: flags.rawValue, requestID: requestID)
        let length = FrameHeader.size + payloadCount
        guard length <= maxFrameSize else { throw .frameTooLarge(length: length, limit: maxFrameSize) }
        out.appendBigEndian(UInt32(truncatingIfNeeded: length))
        header.append(to: &out)
    }
}

// MARK: - One function per frame kind

extension FrameEncoder {
    public func appendHello(_ hello: Hello, to out: inout [UInt8]) throws {
        try append(.hello, requestID: 0, payload: hello, to: &out)
    }

    public func appendRequest(id: UInt32, _ request: Request, to out: inout [UInt8]) throws {
        try append(.request, requestID: id, payload: request, to: &out)
    }

    public func appendResponse(id: UInt32, _ reply: Reply, to out: inout [UInt8]) throws {
        if reply.method.streams, let header = reply.result as? StreamHeader {
            try appendStreamHeader(id: id, header, to: &out)
        } else {
            try append(.response, requestID: id, payload: reply, to: &out)
        }
    }

    /// Starts a stream: a response frame with `streamFollows` carrying the header.
    public func appendStreamHeader(id: UInt32, _ header: StreamHeader, to out: inout [UInt8]) throws {
        try append(.response, requestID: id, flags: .streamFollows, payload: header, to: &out)
    }

    /// One chunk of raw stream bytes; at most `maxFrameSize - FrameHeader.size` of them.
    public func appendStreamChunk(id: UInt32, _ bytes: some Collection<UInt8>, to out: inout [UInt8]) throws(FrameError) {
        try appendRaw(.streamChunk, requestID: id, bytes: bytes, to: &out)
    }

    public func appendStreamEnd(id: UInt32, _ end: StreamEnd, to out: inout [UInt8]) throws {
        try append(.streamEnd, requestID: id, payload: end, to: &out)
    }

    /// `id` 0 reports a connection-level error (the sender closes afterwards).
    public func appendError(id: UInt32, _ body: ErrorBody, to out: inout [UInt8]) throws {
        try append(.error, requestID: id, payload: body, to: &out)
    }

    public func appendCancel(id: UInt32, to out: inout [UInt8]) throws(FrameError) {
        try appendRaw(.cancel, requestID: id, bytes: EmptyCollection(), to: &out)
    }
}
