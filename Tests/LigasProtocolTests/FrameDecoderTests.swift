import Foundation
import Testing
@testable import LigasProtocol
import LigasTestSupport

@Suite("Framing: incremental decoder")
struct FrameDecoderTests {
    /// Every golden vector frame, back to back, as one connection's byte stream.
    static func stream() throws -> (bytes: [UInt8], frames: [Frame]) {
        var bytes: [UInt8] = []
        var frames: [Frame] = []
        for spec in VectorCatalog.all {
            let frameBytes = try spec.frameBytes()
            bytes += frameBytes
            let header = FrameHeader(kind: spec.kind, flags: spec.flags, requestID: spec.requestID)
            frames.append(Frame(header: header, payload: Array(frameBytes.dropFirst(12))))
        }
        return (bytes, frames)
    }

    static func decodeAll(_ bytes: [UInt8], chunkSizes: [Int]) throws -> [Frame] {
        var decoder = FrameDecoder()
        var frames: [Frame] = []
        var offset = 0
        var turn = 0
        while offset < bytes.count {
            let size = min(chunkSizes[turn % chunkSizes.count], bytes.count - offset)
            decoder.append(bytes[offset..<(offset + size)])
            offset += size
            turn += 1
            while let frame = try decoder.nextFrame() { frames.append(frame) }
        }
        #expect(decoder.bufferedByteCount == 0)
        return frames
    }

    @Test("any split of the same bytes yields exactly the same frames", arguments: [
        ("everything at once", [Int.max]), ("one byte at a time", [1]), ("alternating 143 and 137 bytes", [143, 137]),
        ("seven bytes", [7]), ("4096 bytes", [4096]),
    ])
    func splits(label: String, chunkSizes: [Int]) throws {
        let (bytes, expected) = try Self.stream()
        let frames = try Self.decodeAll(bytes, chunkSizes: chunkSizes)
        #expect(frames.count == expected.count)
        #expect(frames == expected, "\(label)")
    }

    /// The vectors' stream with two large stream chunks among them (read into place by `receive`).
    static func streamWithLargeChunks() throws -> (bytes: [UInt8], frames: [Frame]) {
        var (bytes, frames) = try stream()
        for (index, size) in [(3, FrameDecoder.inPlacePayloadSize), (7, 300_001)] {
            let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            var frameBytes: [UInt8] = []
            try FrameEncoder(maxFrameSize: .max).appendStreamChunk(id: 5, payload, to: &frameBytes)
            let offset = frames[0..<index].reduce(0) { $0 + 12 + $1.payload.count }
            bytes.insert(contentsOf: frameBytes, at: offset)
            frames.insert(Frame(header: FrameHeader(kind: .streamChunk, requestID: 5), payload: payload), at: index)
        }
        return (bytes, frames)
    }

    /// Feeds `bytes` through `receive`, each read returning at most the next of `readSizes`;
    /// returns the frames and, for each read, how much room it was offered.
    static func receiveAll(_ bytes: [UInt8], readSizes: [Int], scratchSize: Int = FrameDecoder.scratchSize) throws -> (frames: [Frame], offered: [Int]) {
        var decoder = FrameDecoder()
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: scratchSize, alignment: 16)
        defer { scratch.deallocate() }
        var frames: [Frame] = []
        var offered: [Int] = []
        var offset = 0
        while offset < bytes.count {
            let limit = readSizes[offered.count % readSizes.count]
            let count = decoder.receive(using: scratch) { memory in
                offered.append(memory.count)
                let count = min(memory.count, limit, bytes.count - offset)
                bytes.withUnsafeBytes { memory.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
                return count
            }
            offset += count
            while let frame = try decoder.nextFrame() { frames.append(frame) }
        }
        #expect(decoder.bufferedByteCount == 0)
        return (frames, offered)
    }

    @Test("receiving yields the same frames as appending, large payloads read into place included", arguments: [
        [Int.max], [1], [143, 137], [4096], [70_000, 5],
    ])
    func receiveSplits(readSizes: [Int]) throws {
        let (bytes, expected) = try Self.streamWithLargeChunks()
        #expect(try Self.receiveAll(bytes, readSizes: readSizes).frames == expected)
        #expect(try Self.decodeAll(bytes, chunkSizes: readSizes) == expected)
    }

    @Test("a large payload is read straight into its own array: once its header is in, no read asks for more than the rest of it")
    func largePayloadReadInPlace() throws {
        let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
        var bytes: [UInt8] = []
        try FrameEncoder(maxFrameSize: .max).appendStreamChunk(id: 9, payload, to: &bytes)
        try FrameEncoder().appendCancel(id: 9, to: &bytes)
        let (frames, offered) = try Self.receiveAll(bytes, readSizes: [Int.max])
        #expect(frames.map(\.payload) == [payload, []])
        // The first read fills the scratch (header and the payload's first bytes); the
        // next asks for exactly the rest of the payload, far more than the scratch holds; the
        // cancel frame after it is read into the scratch again.
        let scratch = FrameDecoder.scratchSize
        #expect(scratch == 16 << 10)
        #expect(offered == [scratch, 300_000 - (scratch - 12), scratch])
    }

    @Test("a frame over the limit fails when received too, before its payload is allocated")
    func receiveFrameTooLarge() throws {
        let bytes: [UInt8] = [0x7F, 0xFF, 0xFF, 0xFF] + Array(repeating: 0, count: 40)
        #expect(throws: FrameError.frameTooLarge(length: 0x7FFF_FFFF, limit: ProtocolLimits.defaultMaxFrameSize)) {
            try Self.receiveAll(bytes, readSizes: [6, 100])
        }
    }

    @Test("a frame announcing more than the limit fails as soon as its length arrives, before any allocation")
    func frameTooLarge() throws {
        var decoder = FrameDecoder()
        decoder.append([0xFF, 0xFF, 0xFF])
        #expect(try decoder.nextFrame() == nil)
        decoder.append([0xFF])
        #expect(throws: FrameError.frameTooLarge(length: 0xFFFF_FFFF, limit: ProtocolLimits.defaultMaxFrameSize)) {
            try decoder.nextFrame()
        }
        #expect(decoder.bufferedByteCount == 4)
        #expect(FrameError.frameTooLarge(length: 0xFFFF_FFFF, limit: 1).errorBody.code == .frameTooLarge)
    }

    @Test("the limit is configurable and inclusive")
    func configurableLimit() throws {
        let atLimit = Frame(header: FrameHeader(kind: .streamChunk, requestID: 1), payload: Array(repeating: 7, count: 4096 - 8))
        var decoder = FrameDecoder(maxFrameSize: 4096)
        var bytes: [UInt8] = []
        try FrameEncoder(maxFrameSize: .max).appendStreamChunk(id: 1, atLimit.payload, to: &bytes)
        decoder.append(bytes)
        #expect(try decoder.nextFrame() == atLimit)
        bytes = []
        try FrameEncoder(maxFrameSize: .max).appendStreamChunk(id: 1, atLimit.payload + [0], to: &bytes)
        decoder.append(bytes)
        #expect(throws: FrameError.frameTooLarge(length: 4097, limit: 4096)) { try decoder.nextFrame() }
    }

    @Test("malformed headers are named errors", arguments: [
        ("00000007 01020000000000", FrameError.frameTooShort(length: 7)),
        ("00000008 0202000000000001", FrameError.unsupportedVersion(2)),
        ("00000008 0002000000000001", FrameError.unsupportedVersion(0)),
        ("00000008 0108000000000001", FrameError.unknownFrameKind(8)),
        ("00000008 0100000000000001", FrameError.unknownFrameKind(0)),
        ("00000008 0102000100000001", FrameError.reservedFlags(kind: .request, flags: 1)),
        ("00000008 0103000200000001", FrameError.reservedFlags(kind: .response, flags: 2)),
        ("00000008 0101000000000005", FrameError.invalidRequestID(kind: .hello, requestID: 5)),
        ("00000008 0102000000000000", FrameError.invalidRequestID(kind: .request, requestID: 0)),
        ("00000009 010700000000000100", FrameError.unexpectedPayload(kind: .cancel, length: 1)),
    ])
    func malformedHeaders(hex: String, error: FrameError) throws {
        var decoder = FrameDecoder()
        decoder.append(try #require(Hex.decode(hex)))
        #expect(throws: error) { try decoder.nextFrame() }
        #expect(error.errorBody.code == (error == .unsupportedVersion(2) || error == .unsupportedVersion(0) ? .unsupportedVersion : .badFrame))
    }

    @Test("a bad header is reported once its 8 bytes are in, without waiting for the payload")
    func earlyHeaderError() throws {
        var decoder = FrameDecoder()
        decoder.append(try #require(Hex.decode("000003e8 0109000000000001")))
        #expect(throws: FrameError.unknownFrameKind(9)) { try decoder.nextFrame() }
    }

    @Test("after an error the decoder keeps failing: the connection must close")
    func errorsAreSticky() throws {
        var decoder = FrameDecoder()
        decoder.append(try #require(Hex.decode("00000008 0202000000000001")))
        #expect(throws: FrameError.unsupportedVersion(2)) { try decoder.nextFrame() }
        decoder.append(try VectorCatalog.all[0].frameBytes())
        #expect(throws: FrameError.unsupportedVersion(2)) { try decoder.nextFrame() }
    }

    @Test("valid flag and id combinations are accepted")
    func validHeaders() throws {
        var decoder = FrameDecoder()
        decoder.append(try #require(Hex.decode("00000008 0103000100000001 00000008 0104000000000000 00000008 0107000000000009")))
        #expect(try decoder.nextFrame()?.header.flags == .streamFollows)
        #expect(try decoder.nextFrame()?.header == FrameHeader(kind: .error, requestID: 0))
        #expect(try decoder.nextFrame()?.header == FrameHeader(kind: .cancel, requestID: 9))
        #expect(try decoder.nextFrame() == nil)
    }

    @Test("random byte streams never crash the frame decoder")
    func randomStreams() {
        var generator = SeededGenerator(seed: 0xF4A3E)
        var errors = 0
        for _ in 0..<2000 {
            var decoder = FrameDecoder(maxFrameSize: 4096)
            let bytes = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            decoder.append(bytes)
            do {
                while let frame = try decoder.nextFrame() { _ = try? Message(frame: frame) }
            } catch {
                errors += 1
            }
        }
        #expect(errors > 0)
    }
}
