import Foundation
import Testing
@testable import LigasProtocol
import LigasTestSupport

@Suite("CBOR: hostile input")
struct CBORRobustnessTests {
    static let payloads: [String] = ["response-teams", "response-players", "response-matches", "request-matches", "hello-client"]

    private func payload(of vector: String) throws -> (bytes: [UInt8], method: (any RPCMethod.Type)?, kind: FrameKind) {
        let file = try VectorFile.load(VectorFile.url(for: vector))
        return (try #require(Hex.decode(file.payloadHex)), file.method, file.kind)
    }

    private func decode(_ bytes: [UInt8], kind: FrameKind, method: (any RPCMethod.Type)?) throws {
        switch kind {
        case .hello: _ = try CBORDecoder().decode(Hello.self, from: bytes)
        case .request: _ = try CBORDecoder().decode(Request.self, from: bytes)
        default: _ = try #require(method).reply(decoding: bytes)
        }
    }

    @Test("every truncation of a valid payload is a named error, never a crash",
          arguments: payloads)
    func truncations(vector: String) throws {
        let (bytes, method, kind) = try payload(of: vector)
        for length in 0..<bytes.count {
            let prefix = Array(bytes[0..<length])
            #expect(throws: CBORDecodingError.self) { try decode(prefix, kind: kind, method: method) }
            #expect(throws: CBORDecodingError.self) { try CBORDecoder().decode(AnyWellFormed.self, from: prefix) }
        }
    }

    @Test("huge announced lengths fail fast instead of allocating", arguments: [
        ("5bffffffffffffffff", 9),  // byte string of 2^64-1 bytes
        ("7b8000000000000000", 9),  // text of 2^63 bytes
        ("9bffffffffffffffff", 9),  // array of 2^64-1 items
        ("bbffffffffffffffff", 9),  // map of 2^64-1 entries
        ("9a0000ffff01", 5),        // array of 65535 items, one present
        ("a20102", 1),              // map announcing 2 entries, holding 1
    ])
    func hugeLengths(hex: String, contentOffset: Int) throws {
        let bytes = try #require(Hex.decode(hex))
        #expect(throws: CBORDecodingError.lengthExceedsInput(offset: contentOffset)) {
            _ = try CBORDecoder().decode(AnyWellFormed.self, from: bytes)
        }
        #expect(throws: CBORDecodingError.self) { _ = try CBORDecoder().decode(TeamsResult.self, from: bytes) }
    }

    @Test("nesting is capped at maxDepth without exhausting the stack")
    func depthCap() throws {
        let allowed = Array(repeating: UInt8(0x81), count: CBORDecoder.maxDepth - 1) + [0x80]
        #expect(throws: Never.self) { _ = try CBORDecoder().decode(AnyWellFormed.self, from: allowed) }
        let tooDeep = Array(repeating: UInt8(0x81), count: CBORDecoder.maxDepth) + [0x80]
        #expect(throws: CBORDecodingError.depthLimitExceeded(limit: CBORDecoder.maxDepth, offset: CBORDecoder.maxDepth)) {
            _ = try CBORDecoder().decode(AnyWellFormed.self, from: tooDeep)
        }
        let abyss = Array(repeating: UInt8(0x81), count: 200_000) + [0x80]
        #expect(throws: CBORDecodingError.self) { _ = try CBORDecoder().decode(AnyWellFormed.self, from: abyss) }
        let tags = Array(repeating: UInt8(0xC1), count: 200_000) + [0x00]
        #expect(throws: CBORDecodingError.self) { _ = try CBORDecoder().decode(Clock.self, from: tags) }
    }

    @Test("deep nesting hidden under an unknown key is capped")
    func depthCapInsideMessage() throws {
        // {"source": "cache", "value": [], "x": [[[[...]]]]} with 100 levels under "x"
        var bytes: [UInt8] = [0xA3] + CBORItem.text("source").encoded() + CBORItem.text("cache").encoded()
        bytes += CBORItem.text("value").encoded() + [0x80] + CBORItem.text("x").encoded()
        bytes += Array(repeating: UInt8(0x81), count: 100) + [0x80]
        #expect(throws: CBORDecodingError.self) { _ = try CBORDecoder().decode(TeamsResult.self, from: bytes) }
    }

    @Test("malformed items are rejected with a named error", arguments: [
        ("", "empty input"),
        ("1c", "reserved additional information 28"),
        ("3e", "reserved additional information 30"),
        ("f818", "two-byte simple value below 32"),
        ("62c328", "invalid UTF-8"),
        ("6480808080", "invalid UTF-8 (continuation bytes only)"),
        ("0000", "trailing bytes"),
        ("1a0001", "argument cut short"),
    ])
    func malformed(hex: String, reason: String) throws {
        let bytes = try #require(Hex.decode(hex))
        #expect(throws: CBORDecodingError.self, "\(reason)") { _ = try CBORDecoder().decode(AnyWellFormed.self, from: bytes) }
        #expect(throws: CBORDecodingError.self, "\(reason)") { _ = try CBORDecoder().decode(String.self, from: bytes) }
    }

    @Test("the decoder accepts exactly the items the tests' own parser finds well-formed, and fails with an offset otherwise")
    func validationAgreesWithIndependentParser() throws {
        var generator = SeededGenerator(seed: 0xC0B0)
        var seeds = try Self.payloads.map { try payload(of: $0).bytes }
        seeds += [[0x81, 0xA1, 0x61, 0x78, 0xC1, 0xF9, 0x7E, 0x00], [0x9F, 0xFF], [0x62, 0xC3, 0xA9]]
        var accepted = 0
        for _ in 0..<4000 {
            var bytes = seeds[Int.random(in: 0..<seeds.count, using: &generator)]
            for _ in 0..<Int.random(in: 1...3, using: &generator) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0...3, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes[index] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                case 2: bytes.remove(at: index)
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                }
            }
            let oracle = try? CBORItem.parse(bytes)
            do {
                _ = try CBORDecoder().decode(AnyWellFormed.self, from: bytes)
                accepted += 1
                #expect(oracle != nil, "decoder accepted \(Hex.encode(bytes))")
            } catch let error as CBORDecodingError {
                #expect(oracle == nil, "decoder refused \(Hex.encode(bytes)): \(error)")
                #expect(error.details.keys.sorted() == ["offset"], "\(Hex.encode(bytes)): \(error)")
            }
        }
        #expect(accepted > 100 && accepted < 3900) // both outcomes were exercised
    }

    @Test("random bytes never crash the decoders of the real message types")
    func randomBytes() {
        var generator = SeededGenerator(seed: 0x11A5)
        var failures = 0
        for _ in 0..<3000 {
            let count = Int.random(in: 0..<64, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for method in Methods.all {
                if (try? method.reply(decoding: bytes)) == nil { failures += 1 }
            }
            if (try? CBORDecoder().decode(Request.self, from: bytes)) == nil { failures += 1 }
            if (try? CBORDecoder().decode(Hello.self, from: bytes)) == nil { failures += 1 }
        }
        #expect(failures > 0) // reached: no crash; random bytes are almost never valid messages
    }
}

private struct Clock: Codable {
    var at: Date
}
