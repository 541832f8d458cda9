import Foundation
import Testing
@testable import LigasProtocol

/// Seeded, deterministic round trips of random values of every message type.
@Suite("Property: round trips")
struct PropertyTests {
    static let iterations = 300

    /// Encodes, decodes (equal to the original), checks the bytes are already
    /// deterministic, and frames them.
    private func check<T: Codable & Equatable>(_ value: T, kind: FrameKind = .response) throws {
        let encoded = try CBOREncoder().encode(value)
        #expect(try CBORDecoder().decode(T.self, from: encoded) == value)
        // The tests' own parser and writer (shortest forms, sorted keys) give the same bytes
        // back only if the encoding was already deterministic.
        #expect(try CBORItem.parse(encoded).encoded() == encoded)

        var frameBytes: [UInt8] = []
        try FrameEncoder(maxFrameSize: .max).append(kind, requestID: kind == .hello ? 0 : 77, payload: value, to: &frameBytes)
        var decoder = FrameDecoder(maxFrameSize: .max)
        decoder.append(frameBytes)
        let frame = try #require(try decoder.nextFrame())
        #expect(frame.payload == encoded)
        #expect(try CBORDecoder().decode(T.self, from: frame.payload) == value)
    }

    @Test("requests of every method round-trip")
    func requests() throws {
        var random = RandomValues(seed: 1)
        var seen = Set<String>()
        for _ in 0..<Self.iterations {
            let request = random.request()
            seen.insert(request.method.name)
            try check(request, kind: .request)
            #expect(try Request.decode(from: CBOREncoder().encode(request)) == request)
        }
        #expect(seen == Set(Methods.all.map { $0.name }))
    }

    @Test("results of every method round-trip", arguments: Methods.all.map { $0.name })
    func replies(name: String) throws {
        let method = try #require(Methods.named(name))
        var random = RandomValues(seed: 2 &+ UInt64(Methods.all.firstIndex { $0.name == name } ?? 0))
        for _ in 0..<(method == Methods.Describe.self ? 3 : Self.iterations) {
            let reply = random.reply(method)
            let bytes = try CBOREncoder().encode(reply)
            #expect(try method.reply(decoding: bytes) == reply)
            try checkResult(of: method, reply)
        }
    }

    private func checkResult<M: RPCMethod>(of method: M.Type, _ reply: Reply) throws {
        try check(try #require(reply.result as? M.Result))
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
