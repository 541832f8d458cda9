import Foundation
import Testing
@testable import LigasProtocol

@Suite("Framing: encoder")
struct FrameEncoderTests {
    @Test("a frame over the peer's announced limit is refused and nothing is appended")
    func peerLimit() throws {
        let encoder = FrameEncoder(maxFrameSize: 4096)
        var out: [UInt8] = [0xAA]
        let big = TeamsResult(source: .cache, value: Array(repeating: Sample.teams[0], count: 60))
        #expect(throws: FrameError.self) { try encoder.appendResponse(id: 1, Reply(Methods.Teams.self, big), to: &out) }
        #expect(out == [0xAA])
        #expect(throws: FrameError.frameTooLarge(length: 4097, limit: 4096)) {
            try encoder.appendStreamChunk(id: 1, Array(repeating: 0, count: encoder.maxFrameSize - FrameHeader.size + 1), to: &out)
        }
        #expect(out == [0xAA])
        try encoder.appendStreamChunk(id: 1, Array(repeating: 0, count: encoder.maxFrameSize - FrameHeader.size), to: &out)
        #expect(out.count == 1 + 4 + 4096)
    }

    @Test("frames the decoder would reject are not written")
    func invalidHeadersRefused() throws {
        var out: [UInt8] = []
        let encoder = FrameEncoder()
        #expect(throws: FrameError.invalidRequestID(kind: .request, requestID: 0)) {
            try encoder.appendRequest(id: 0, Request(Methods.Ping.self), to: &out)
        }
        #expect(throws: FrameError.reservedFlags(kind: .streamChunk, flags: 1)) {
            try encoder.appendRaw(.streamChunk, requestID: 1, flags: .streamFollows, bytes: [1], to: &out)
        }
        #expect(out.isEmpty)
    }

    @Test("several frames appended to one buffer decode in order")
    func batching() throws {
        var out: [UInt8] = []
        let encoder = FrameEncoder()
        try encoder.appendStreamHeader(id: 2, StreamHeader(contentType: "image/png", totalSize: 68, source: .cache), to: &out)
        try encoder.appendStreamChunk(id: 2, Sample.pngImage, to: &out)
        try encoder.appendStreamEnd(id: 2, StreamEnd(totalBytes: 68, sha256: Sample.pngSHA256), to: &out)
        var decoder = FrameDecoder()
        decoder.append(out)
        var messages: [Message] = []
        while let frame = try decoder.nextFrame() { messages.append(try Message(frame: frame)) }
        #expect(messages == [
            .streamStart(id: 2, StreamHeader(contentType: "image/png", totalSize: 68, source: .cache)),
            .streamChunk(id: 2, bytes: Sample.pngImage),
            .streamEnd(id: 2, StreamEnd(totalBytes: 68, sha256: Sample.pngSHA256)),
        ])
    }

    @Test("an image reply is framed as a stream header")
    func imageReplyIsStreamStart() throws {
        var out: [UInt8] = []
        let header = StreamHeader(contentType: "image/jpeg", source: .remote)
        try FrameEncoder().appendResponse(id: 4, Reply(Methods.Image.self, header), to: &out)
        var decoder = FrameDecoder()
        decoder.append(out)
        let frame = try #require(try decoder.nextFrame())
        #expect(frame.header.flags == .streamFollows)
        #expect(try Message(frame: frame) == .streamStart(id: 4, header))
    }
}
