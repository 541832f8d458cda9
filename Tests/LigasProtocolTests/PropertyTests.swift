import Foundation
import Testing
@testable import LigasProtocol

/// Seeded, deterministic round trips of random values of every message type.
@Suite("Property: round trips")
struct PropertyTests {
    static let iterations = 300

    /// Encodes, decodes (equal to the original, with and without URL interning), checks
    /// the bytes are already deterministic, and frames them.
    private func check<T: Codable & Equatable>(_ value: T, kind: FrameKind = .response) throws {
        let encoded = try CBOREncoder().encode(value)
        #expect(try CBORDecoder().decode(T.self, from: encoded) == value)
        #expect(try CBORDecoder(internsURLs: false).decode(T.self, from: encoded) == value)
        // Re-encoding the generic tree sorts keys itself: equal bytes mean they were sorted.
        #expect(try CBORDecoder().decodeValue(from: encoded).encoded() == encoded)

        var frameBytes: [UInt8] = []
        try FrameEncoder(maxFrameSize: .max).append(kind, requestID: kind == .hello ? 0 : 77, payload: value, to: &frameBytes)
        var decoder = FrameDecoder(maxFrameSize: .max)
        decoder.append(frameBytes)
        let frame = try #require(try decoder.nextFrame())
        #expect(frame.payload == encoded)
        #expect(try frame.decodePayload(as: T.self) == value)
    }

    @Test("requests of every method round-trip")
    func requests() throws {
        var random = RandomValues(seed: 1)
        var seen = Set<Method>()
        for _ in 0..<Self.iterations {
            let request = random.request()
            seen.insert(request.method)
            try check(request, kind: .request)
            #expect(try Request.decode(from: CBOREncoder().encode(request)) == request)
        }
        #expect(seen == Set(Method.allCases))
    }

    @Test("results of every method round-trip", arguments: Method.allCases)
    func replies(method: Method) throws {
        var random = RandomValues(seed: 2 &+ UInt64(Method.allCases.firstIndex(of: method) ?? 0))
        for _ in 0..<(method == .describe ? 3 : Self.iterations) {
            let reply = random.reply(method)
            let bytes = try CBOREncoder().encode(reply)
            #expect(try Reply.decode(method: method, payload: bytes) == reply)
            switch reply {
            case .ping(let value): try check(value)
            case .leagues(let value): try check(value)
            case .teams(let value): try check(value)
            case .players(let value): try check(value)
            case .matches(let value): try check(value)
            case .image(let value): try check(value)
            case .status(let value): try check(value)
            case .describe(let value): try check(value)
            }
        }
    }

    @Test("hello, error, stream header and stream end round-trip")
    func connectionMessages() throws {
        var random = RandomValues(seed: 3)
        for _ in 0..<Self.iterations {
            try check(random.hello(), kind: .hello)
            try check(random.errorBody(), kind: .error)
            try check(random.streamHeader())
            try check(random.streamEnd(), kind: .streamEnd)
        }
    }
}
