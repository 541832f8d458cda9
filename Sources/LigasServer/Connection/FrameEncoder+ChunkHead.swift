import LigasProtocol

extension FrameEncoder {
    /// A `streamChunk` frame of `length` payload bytes, without the bytes: the 4-byte length and
    /// the 8-byte header. The output queue sends the chunk's own storage right after it, so a
    /// stream's bytes are never copied into frames.
    func appendStreamChunkHead(id: UInt32, length: Int, to out: inout [UInt8]) throws(FrameError) {
        let start = out.count
        try appendStreamChunk(id: id, EmptyCollection(), to: &out)
        let frameLength = FrameHeader.size + length
        guard frameLength <= maxFrameSize else {
            out.removeSubrange(start...)
            throw .frameTooLarge(length: frameLength, limit: maxFrameSize)
        }
        out[start] = UInt8(truncatingIfNeeded: frameLength >> 24)
        out[start + 1] = UInt8(truncatingIfNeeded: frameLength >> 16)
        out[start + 2] = UInt8(truncatingIfNeeded: frameLength >> 8)
        out[start + 3] = UInt8(truncatingIfNeeded: frameLength)
    }
}
