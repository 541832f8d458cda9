import Foundation
import Testing
@testable import LigasProtocol
import LigasTestSupport

/// The receiver rules of PROTOCOL.md §3.4 and §3.5 that a payload's bytes decide:
/// UTF-8 in skipped text, how nesting depth is counted, what `details` says about
/// an invalid payload, and which CBOR forms are type mismatches.
@Suite("Payload rules")
struct PayloadRulesTests {
    // MARK: Building raw payloads (CBORItem cannot hold invalid UTF-8)

    /// A text string whose content bytes are `raw`, valid UTF-8 or not (shorter than 24 bytes).
    static func text(raw: [UInt8]) -> [UInt8] { [0x60 | UInt8(raw.count)] + raw }
    static func text(_ string: String) -> [UInt8] { CBORItem.text(string).encoded() }
    /// A map head with `count` entries followed by the already encoded keys and values.
    static func map(_ entries: [([UInt8], [UInt8])]) -> [UInt8] {
        [0xA0 | UInt8(entries.count)] + entries.flatMap { $0.0 + $0.1 }
    }

    /// "\xC3(": a two-byte lead followed by an ASCII byte.
    static let invalidUTF8: [UInt8] = [0xC3, 0x28]

    private func requestError(_ bytes: [UInt8]) -> ErrorBody? {
        do {
            _ = try Request.decode(from: bytes, using: CBORDecoder())
            return nil
        } catch {
            return error
        }
    }

    // MARK: UTF-8

    @Test("the raw-byte UTF-8 validator agrees with the standard library on edge cases and random bytes")
    func utf8Validator() {
        let edges: [[UInt8]] = [
            [], [0x41], [0x7F], [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2, 0x80], [0xDF, 0xBF], [0xC3],
            [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
            [0xEF, 0xBF, 0xBF], [0xE1, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80],
            [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF],
            Array("Domínguez".utf8), Array("plain ASCII, longer than eight bytes".utf8) + [0xC3, 0x28],
        ]
        var generator = SeededGenerator(seed: 0x0FF8)
        let random = (0..<20_000).map { _ in
            (0..<Int.random(in: 0..<12, using: &generator)).map { _ in
                // Mostly high bytes, so multi-byte sequences are actually exercised.
                UInt8.random(in: 0...255, using: &generator) | (Bool.random(using: &generator) ? 0x80 : 0)
            }
        }
        for bytes in edges + random {
            let expected = String(validating: bytes, as: UTF8.self) != nil
            bytes.withUnsafeBufferPointer { buffer in
                #expect(CBORText.isValidUTF8(buffer) == expected, "\(Hex.encode(bytes))")
            }
        }
    }

    /// Requests that differ from a valid ping only by invalid UTF-8 somewhere the
    /// decoder does not look: an unknown key's value, an unknown key itself, deep
    /// inside an unknown value, inside a non-text key, inside `args`.
    static let invalidTextInUnknownPlaces: [(String, [UInt8])] = [
        ("unknown key's value", map([(text("method"), text("ping")), (text("x"), text(raw: invalidUTF8))])),
        ("unknown key", map([(text("method"), text("ping")), (text(raw: invalidUTF8), [0x01])])),
        ("deep in an unknown value", map([
            (text("method"), text("ping")),
            (text("x"), [0x81, 0xA1] + text("y") + [0x82, 0x01, 0xC0] + text(raw: invalidUTF8)),
        ])),
        ("inside a non-text key", map([(text("method"), text("ping")), ([0x81] + text(raw: invalidUTF8), [0x01])])),
        ("unknown key in args", map([
            (text("args"), map([(text("league"), text("l")), (text(raw: invalidUTF8), [0xF6])])),
            (text("method"), text("teams")),
        ])),
        ("duplicate of a known key", map([(text("method"), text("ping")), (text("method"), text(raw: invalidUTF8))])),
    ]

    @Test("invalid UTF-8 in text the decoder skips is rejected: badRequest with details.offset",
          arguments: invalidTextInUnknownPlaces.indices)
    func invalidUTF8InSkippedText(index: Int) throws {
        let (place, bytes) = Self.invalidTextInUnknownPlaces[index]
        let error = try #require(requestError(bytes), "\(place): accepted")
        #expect(error.code == .badRequest, "\(place)")
        #expect(error.details?["path"] == nil, "\(place)")
        let offset = try #require(error.details?["offset"].flatMap { Int($0) }, "\(place): \(error)")
        // The offset is where the bad text's content starts.
        #expect(Array(bytes[offset..<(offset + 2)]) == Self.invalidUTF8, "\(place): offset \(offset)")
    }

    @Test("invalid UTF-8 under an unknown key of a hello, an error body or a result is rejected")
    func invalidUTF8InOtherPayloads() throws {
        var hello = try CBOREncoder().encode(Sample.clientHello)
        hello[0] += 1 // one more entry
        hello += Self.text("x") + Self.text(raw: Self.invalidUTF8)
        let frame = Frame(header: FrameHeader(kind: .hello, requestID: 0), payload: hello)
        #expect(throws: ErrorBody(
            code: .badFrame,
            message: "invalid hello payload: malformed CBOR at byte \(hello.count - 2): invalid UTF-8 in text string",
            details: ["offset": "\(hello.count - 2)"]
        )) { try Message(frame: frame, using: CBORDecoder()) }

        var teams = try CBOREncoder().encode(TeamsResult(source: .cache, value: Sample.teams))
        teams[0] += 1
        teams += Self.text("x") + Self.text(raw: Self.invalidUTF8)
        #expect(throws: CBORDecodingError.malformed(reason: "invalid UTF-8 in text string", offset: teams.count - 2)) {
            try CBORDecoder().decode(TeamsResult.self, from: teams)
        }
    }

    @Test("valid non-ASCII text under unknown keys is still skipped")
    func validUnknownTextIsIgnored() throws {
        let bytes = Self.map([
            (Self.text("method"), Self.text("ping")), (Self.text("año"), Self.text("Domínguez 🇪🇨")),
        ])
        #expect(try Request.decode(from: bytes, using: CBORDecoder()) == Request(Methods.Ping.self))
    }

    // MARK: details of an invalid payload

    /// request-teams with its last byte cut off: the text "teams" announces 5 bytes, 4 remain.
    static let truncatedTeamsRequest: [UInt8] = {
        let payload = (try? CBOREncoder().encode(Request(Methods.Teams.self, TeamsArguments(league: "ligapro-serie-a")))) ?? []
        return Array(payload.dropLast())
    }()

    @Test("a payload that is not well-formed CBOR: badRequest with details.offset and no path, as in the vector")
    func structuralErrorDetails() throws {
        let file = try VectorFile.load(VectorFile.url(for: "error-bad-request-truncated"))
        let expected = try CBORDecoder().decode(ErrorBody.self, from: #require(Hex.decode(file.payloadHex)))
        #expect(requestError(Self.truncatedTeamsRequest) == expected)
        #expect(expected.details == ["offset": "52"])
    }

    @Test("each structural error names an offset; each schema error names a path")
    func detailsKinds() throws {
        let structural: [[UInt8]] = [
            [],                                                // empty
            Self.map([(Self.text("method"), Self.text("ping"))]) + [0x00],  // trailing byte
            [0xA1] + Self.text("method") + [0x7F],             // indefinite length
            [0xA1] + Self.text("method") + [0x1C],             // reserved additional information
        ]
        for bytes in structural {
            let error = try #require(requestError(bytes))
            #expect(error.code == .badRequest)
            #expect(error.details?.keys.sorted() == ["offset"], "\(Hex.encode(bytes)): \(error)")
        }
        // Well-formed, but the top-level item is not a map: path "" (the whole payload).
        let topLevel = try #require(requestError([0x01]))
        #expect(topLevel.details == ["path": ""])
    }

    // MARK: Nesting depth

    /// {"method": "ping", "x": [[...[]...]]} with `arrays` nested arrays under "x":
    /// the map is level 1, the arrays levels 2 ... arrays + 1.
    static func nestedUnderUnknownKey(arrays: Int) -> [UInt8] {
        Self.map([
            (Self.text("method"), Self.text("ping")),
            (Self.text("x"), Array(repeating: 0x81, count: arrays - 1) + [0x80]),
        ])
    }

    @Test("nesting: 64 levels (the top-level map is level 1) are accepted, 65 refused")
    func depthBoundary() throws {
        #expect(CBORDecoder.maxDepth == 64)
        #expect(try Request.decode(from: Self.nestedUnderUnknownKey(arrays: 63), using: CBORDecoder()) == Request(Methods.Ping.self))
        let tooDeep = Self.nestedUnderUnknownKey(arrays: 64)
        let error = try #require(requestError(tooDeep))
        #expect(error.code == .badRequest)
        // The 65th level is the innermost array, the last byte.
        #expect(error.details == ["offset": "\(tooDeep.count - 1)"])

        // Inside args (level 2) the same count applies: args + 62 arrays = 64 levels.
        func teams(arrays: Int) -> [UInt8] {
            Self.map([
                (Self.text("args"), Self.map([
                    (Self.text("league"), Self.text("l")),
                    (Self.text("x"), Array(repeating: 0x81, count: arrays - 1) + [0x80]),
                ])),
                (Self.text("method"), Self.text("teams")),
            ])
        }
        #expect(try Request.decode(from: teams(arrays: 62), using: CBORDecoder()) == Request(Methods.Teams.self, TeamsArguments(league: "l")))
        #expect(requestError(teams(arrays: 63))?.code == .badRequest)

        // Tags count as levels too: 63 arrays and a tag under "x" make 65.
        let tagged = Self.map([
            (Self.text("method"), Self.text("ping")),
            (Self.text("x"), Array(repeating: 0x81, count: 63) + [0xC1, 0x00]),
        ])
        #expect(requestError(tagged)?.details == ["offset": "\(tagged.count - 2)"])
    }

    // MARK: Type mismatches

    static let mismatches: [(String, [UInt8], String)] = [
        ("bignum (tag 2) where uint is expected",
         map([(text("method"), text("ping")), (text("deadlineMs"), [0xC2, 0x41, 0x01])]), "deadlineMs"),
        ("float 1.0 where uint is expected",
         map([(text("method"), text("ping")), (text("deadlineMs"), [0xF9, 0x3C, 0x00])]), "deadlineMs"),
        ("tagged integer where uint is expected",
         map([(text("method"), text("ping")), (text("deadlineMs"), [0xC1, 0x05])]), "deadlineMs"),
        ("tag 32 on text that is not a URL",
         map([(text("args"), map([(text("league"), [0xD8, 0x20] + text("ligapro"))])), (text("method"), text("teams"))]),
         "args.league"),
        ("tagged text where an enumeration is expected",
         map([(text("cache"), [0xC0] + text("offline")), (text("method"), text("ping"))]), "cache"),
        ("tag 1 around a URL", map([(text("args"), map([(text("url"), [0xC1] + text("https://x.test/a.png"))])),
                                    (text("method"), text("image"))]), "args.url"),
        ("byte string where text is expected",
         map([(text("args"), map([(text("team"), [0x42, 0x61, 0x62])])), (text("method"), text("players"))]), "args.team"),
    ]

    @Test("tags, bignums, floats and byte strings where the schema wants another type: badRequest with details.path",
          arguments: mismatches.indices)
    func typeMismatches(index: Int) throws {
        let (what, bytes, expectedPath) = Self.mismatches[index]
        let error = try #require(requestError(bytes), "\(what): accepted")
        #expect(error.code == .badRequest, "\(what)")
        #expect(error.details == ["path": expectedPath], "\(what): \(error)")
    }

    @Test("tag 32 around a URL is accepted, and means the same as the untagged URL")
    func uriTagAccepted() throws {
        let url = "https://media.ligapro.ec/logos/equipos/ldu-quito.png"
        let bytes = Self.map([
            (Self.text("args"), Self.map([(Self.text("url"), [0xD8, 0x20] + Self.text(url))])),
            (Self.text("method"), Self.text("image")),
        ])
        #expect(try Request.decode(from: bytes, using: CBORDecoder()) == Request(Methods.Image.self, .url(Sample.url(url))))
    }

    @Test("image args: a key whose value is null is absent, so it neither counts as the one key nor makes two")
    func imageArgumentNullKeys() throws {
        func request(_ args: [([UInt8], [UInt8])]) throws -> Request {
            try Request.decode(from: Self.map([(Self.text("args"), Self.map(args)), (Self.text("method"), Self.text("image"))]), using: CBORDecoder())
        }
        let null: [UInt8] = [0xF6]
        #expect(try request([(Self.text("team"), Self.text("emelec")), (Self.text("url"), null)]) == Request(Methods.Image.self, .team("emelec")))
        #expect(try request([(Self.text("player"), null), (Self.text("league"), Self.text("serie-a"))]) == Request(Methods.Image.self, .league("serie-a")))
        let onlyNulls = requestError(Self.map([
            (Self.text("args"), Self.map([(Self.text("team"), null), (Self.text("url"), null)])), (Self.text("method"), Self.text("image")),
        ]))
        #expect(onlyNulls?.code == .badRequest && onlyNulls?.details?["path"] == "args", "\(String(describing: onlyNulls))")
    }

    // MARK: Hello limits

    static let outOfRangeHellos: [(maxFrameSize: UInt32, chunkSize: UInt32, maxInFlight: UInt32, field: String)] = [
        (100, 65_536, 8, "maxFrameSize"),
        (4095, 65_536, 8, "maxFrameSize"),
        (1 << 20, 0, 8, "chunkSize"),
        (1 << 20, 65_536, 0, "maxInFlight"),
    ]

    @Test("a hello with limits out of range is badFrame naming the field; 4096 is the smallest frame size",
          arguments: outOfRangeHellos.indices)
    func helloLimits(index: Int) throws {
        let (maxFrameSize, chunkSize, maxInFlight, field) = Self.outOfRangeHellos[index]
        let hello = Hello(versions: [1], maxFrameSize: maxFrameSize, maxInFlight: maxInFlight, chunkSize: chunkSize, agent: "c")
        do {
            _ = try Handshake.accept(hello, server: Sample.serverHello)
            Issue.record("accepted \(hello)")
        } catch {
            #expect(error.code == .badFrame)
            #expect(error.details == ["path": field])
        }
        let smallest = Hello(versions: [1], maxFrameSize: 4096, maxInFlight: 1, chunkSize: 1, agent: "c")
        #expect(try Handshake.accept(smallest, server: Sample.serverHello).session.chunkSize == 1)
    }

    @Test("the refused-hello vectors: the hello decodes, and Handshake.accept answers exactly the error vector")
    func refusedHelloVectors() throws {
        let helloFile = try VectorFile.load(VectorFile.url(for: "hello-client-invalid-limits"))
        let errorFile = try VectorFile.load(VectorFile.url(for: "error-hello-refused"))
        let hello = try CBORDecoder().decode(Hello.self, from: #require(Hex.decode(helloFile.payloadHex)))
        let expected = try CBORDecoder().decode(ErrorBody.self, from: #require(Hex.decode(errorFile.payloadHex)))
        #expect(errorFile.header.requestID == 0)
        #expect(throws: expected) { try Handshake.accept(hello, server: Sample.serverHello) }
    }
}
