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
}
