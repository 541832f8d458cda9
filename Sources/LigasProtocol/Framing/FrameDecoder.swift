/// Incremental frame decoder: feed it whatever the socket returned, then pull complete
/// frames; any split of the same byte stream yields the same frames. The length prefix is
/// checked against `maxFrameSize` as soon as its 4 bytes arrive, before anything is buffered
/// or allocated for the frame, and the header as soon as its 8 bytes do. After an error the
/// decoder keeps throwing it (close the connection); it holds one frame plus one read at most.
public struct FrameDecoder: Sendable {
    public let maxFrameSize: Int

    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var failure: FrameError?

    public init(maxFrameSize: Int = ProtocolLimits.defaultMaxFrameSize) {
        self.maxFrameSize = maxFrameSize
    }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        } else if readIndex >= 4096, readIndex >= buffer.count / 2 {
            // Compact only when the consumed prefix dominates, so the memmove amortizes.
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil if more bytes are needed.
    public mutating func nextFrame() throws(FrameError) -> Frame? {
        if let failure { throw failure }
        do {
            return try decodeFrame()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func decodeFrame() throws(FrameError) -> Frame? {
        let available = buffer.count - readIndex
        guard available >= 4 else { return nil }
        let length = Int(buffer.bigEndian(UInt32.self, at: readIndex))
        guard length <= maxFrameSize else { throw .frameTooLarge(length: length, limit: maxFrameSize) }
        guard length >= FrameHeader.size else { throw .frameTooShort(length: length) }
        guard available >= 4 + FrameHeader.size else { return nil }

        let headerStart = readIndex + 4
        let header = try FrameHeader.parse(buffer, at: headerStart)
        let payloadLength = length - FrameHeader.size
        if header.kind == .cancel, payloadLength != 0 {
            throw .unexpectedPayload(kind: .cancel, length: payloadLength)
        }
        guard available >= 4 + length else { return nil }

        let payloadStart = headerStart + FrameHeader.size
        let payload = Array(buffer[payloadStart..<(payloadStart + payloadLength)])
        readIndex += 4 + length
        return Frame(header: header, payload: payload)
    }
}
