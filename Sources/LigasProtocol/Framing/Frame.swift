/// One complete frame: header plus payload (CBOR, or raw bytes for stream chunks).
public struct Frame: Sendable, Hashable {
    public var header: FrameHeader
    public var payload: [UInt8]

    public init(header: FrameHeader, payload: [UInt8]) {
        self.header = header
        self.payload = payload
    }

    public var kind: FrameKind { header.kind }
    public var requestID: UInt32 { header.requestID }

    /// The frame's wire bytes: length prefix, header, payload. No size limit is applied.
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4 + FrameHeader.size + payload.count)
        out.appendBigEndian(UInt32(truncatingIfNeeded: FrameHeader.size + payload.count))
        header.append(to: &out)
        out.append(contentsOf: payload)
        return out
    }
}
