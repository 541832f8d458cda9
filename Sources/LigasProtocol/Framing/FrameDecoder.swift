/// Incremental frame decoder: feed it whatever the socket returned, then pull complete
/// frames; any split of the same byte stream yields the same frames. The length prefix is
/// checked against `maxFrameSize` as soon as its 4 bytes arrive, before anything is buffered
/// or allocated for the frame, and the header as soon as its 8 bytes do. After an error the
/// decoder keeps throwing it (close the connection); it holds one frame plus one read at most.
///
/// Bytes come in with `append`, or with `receive`, which reads them itself: then the payload of
/// a large frame (a stream chunk) is read straight into the frame's own array, once its header
/// is in, instead of into a read buffer, then into this buffer, then into the payload.
public struct FrameDecoder: Sendable {
    public let maxFrameSize: Int

    /// A payload at least this large is read into place by `receive` (see `receive(using:_:)`).
    public static let inPlacePayloadSize = 32 << 10
    /// The size of `receive`'s scratch memory: enough for most answers in one read, and small,
    /// since what lands there of a large payload is copied twice.
    public static let scratchSize = 16 << 10

    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var failure: FrameError?
    /// The large frame `receive` is reading into place; its header and length prefix have left
    /// `buffer`, and `payload` holds `received` bytes so far.
    private var inPlace: (header: FrameHeader, payload: [UInt8], received: Int)?
    /// A frame read into place and complete: the next frame `nextFrame` returns.
    private var completed: Frame?

    public init(maxFrameSize: Int = ProtocolLimits.defaultMaxFrameSize) {
        self.maxFrameSize = maxFrameSize
    }

    /// Bytes received but not yet returned as frames (a frame being read into place counts its
    /// payload bytes so far, not its header).
    public var bufferedByteCount: Int {
        buffer.count - readIndex + (inPlace?.received ?? 0) + (completed?.payload.count ?? 0)
    }

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

    /// Reads once with `read`, which fills the memory it is given and returns, like `read(2)`,
    /// the count it wrote, 0 at the end of the input or a negative number on failure; returns
    /// what `read` returned. Into `scratch` (then appended) normally; but when the next frame's
    /// header is in and its payload is `inPlacePayloadSize` or more, into that payload's own
    /// array, asking for no more than the rest of it, so the next read begins at the next
    /// frame. A stream chunk's bytes are then copied once, by the kernel, but for the part
    /// that came with its header. `scratch` is best `scratchSize` bytes.
    public mutating func receive(
        using scratch: UnsafeMutableRawBufferPointer, _ read: (UnsafeMutableRawBufferPointer) -> Int
    ) -> Int {
        if inPlace == nil, completed == nil, failure == nil { startReadingInPlace() }
        guard var frame = inPlace else {
            let count = read(scratch)
            if count > 0 { append(UnsafeRawBufferPointer(rebasing: scratch[0..<count])) }
            return count
        }
        inPlace = nil  // so that `frame.payload` is the array's only reference: no copy on write
        let count = frame.payload.withUnsafeMutableBytes { payload in
            read(UnsafeMutableRawBufferPointer(rebasing: payload[frame.received...]))
        }
        if count > 0 { frame.received += count }
        if frame.received == frame.payload.count {
            completed = Frame(header: frame.header, payload: frame.payload)
        } else {
            inPlace = frame
        }
        return count
    }

    /// If the next frame is large and its header is in, moves it out of `buffer` into `inPlace`.
    private mutating func startReadingInPlace() {
        guard let (header, payloadLength) = try? nextHeader(),
              payloadLength >= Self.inPlacePayloadSize,
              buffer.count - readIndex < 4 + FrameHeader.size + payloadLength
        else { return }  // a bad header is thrown by the next `nextFrame`
        let payloadStart = readIndex + 4 + FrameHeader.size
        let received = buffer.count - payloadStart
        // Uninitialized beyond `received`: every byte is read in before the frame is returned.
        let payload = [UInt8](unsafeUninitializedCapacity: payloadLength) { memory, count in
            _ = memory.initialize(fromContentsOf: buffer[payloadStart...])
            count = payloadLength
        }
        readIndex = buffer.count
        inPlace = (header, payload, received)
    }

    /// The next complete frame, or nil if more bytes are needed.
    public mutating func nextFrame() throws(FrameError) -> Frame? {
        if let frame = completed {
            completed = nil
            return frame
        }
        if let failure { throw failure }
        do {
            return try decodeFrame()
        } catch {
            failure = error
            throw error
        }
    }

    /// The header and payload length of the frame at `readIndex`, checked, once its length
    /// prefix and header are in (nil before). A frame being read into place is not there.
    private func nextHeader() throws(FrameError) -> (FrameHeader, payloadLength: Int)? {
        guard inPlace == nil else { return nil }
        let available = buffer.count - readIndex
        guard available >= 4 else { return nil }
        let length = Int(buffer.bigEndian(UInt32.self, at: readIndex))
        guard length <= maxFrameSize else { throw .frameTooLarge(length: length, limit: maxFrameSize) }
        guard length >= FrameHeader.size else { throw .frameTooShort(length: length) }
        guard available >= 4 + FrameHeader.size else { return nil }

        let header = try FrameHeader.parse(buffer, at: readIndex + 4)
        let payloadLength = length - FrameHeader.size
        if header.kind == .cancel, payloadLength != 0 {
            throw .unexpectedPayload(kind: .cancel, length: payloadLength)
        }
        return (header, payloadLength)
    }

    private mutating func decodeFrame() throws(FrameError) -> Frame? {
        guard let (header, payloadLength) = try nextHeader() else { return nil }
        let payloadStart = readIndex + 4 + FrameHeader.size
        guard buffer.count >= payloadStart + payloadLength else { return nil }
        let payload = Array(buffer[payloadStart..<(payloadStart + payloadLength)])
        readIndex = payloadStart + payloadLength
        return Frame(header: header, payload: payload)
    }
}
