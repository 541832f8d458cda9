import Foundation
import Testing
@testable import LigasProtocol
import LigasTestSupport

private struct Unordered: Codable, Equatable {
    var zeta: Int
    var a: String
    var mm: Bool
    var omitted: Int?
}

/// An optional of every primitive type (each has its own `decodeIfPresent`).
private struct Optionals: Codable, Equatable {
    var bool: Bool?, string: String?, double: Double?, float: Float?
    var int: Int?, int8: Int8?, int16: Int16?, int32: Int32?, int64: Int64?
    var uint: UInt?, uint8: UInt8?, uint16: UInt16?, uint32: UInt32?, uint64: UInt64?
}

private struct Clocked: Codable, Equatable {
    var at: Date
}

private struct Linked: Codable, Equatable {
    var link: URL
}

private struct Blob: Codable, Equatable {
    var data: Data
}

/// Uses nested containers explicitly, which the synthesized conformances never do.
private struct Nested: Codable, Equatable {
    var name: String
    var scores: [Int]
    var inner: [String: Int]

    enum CodingKeys: String, CodingKey { case name, scores, inner }
    enum InnerKeys: String, CodingKey { case x, y }

    init(name: String, scores: [Int], inner: [String: Int]) {
        self.name = name
        self.scores = scores
        self.inner = inner
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        var list = try container.nestedUnkeyedContainer(forKey: .scores)
        scores = []
        while !list.isAtEnd { scores.append(try list.decode(Int.self)) }
        let innerContainer = try container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
        inner = ["x": try innerContainer.decode(Int.self, forKey: .x), "y": try innerContainer.decode(Int.self, forKey: .y)]
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var innerContainer = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
        try innerContainer.encode(inner["y"] ?? 0, forKey: .y)
        try innerContainer.encode(inner["x"] ?? 0, forKey: .x)
        var list = container.nestedUnkeyedContainer(forKey: .scores)
        for score in scores { try list.encode(score) }
        try container.encode(name, forKey: .name)
    }
}

/// Writes `keys` in this order, one entry each.
private struct DuplicateKeys: Encodable {
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    let keys: [String]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (index, key) in keys.enumerated() { try container.encode(index, forKey: Key(stringValue: key)) }
    }
}

@Suite("CBOR: Codable mapping")
struct CBORCodableTests {
    @Test("a struct is a map with text keys in deterministic order, absent optionals omitted")
    func structIsSortedMap() throws {
        let value = Unordered(zeta: 1, a: "x", mm: true)
        // {"a": "x", "mm": true, "zeta": 1}: shorter keys first, then bytewise.
        #expect(Hex.encode(try CBOREncoder().encode(value)) == "a361616178626d6df5647a65746101")
        #expect(try CBORDecoder().decode(Unordered.self, from: CBOREncoder().encode(value)) == value)
    }

    @Test("nil is null; a null optional field decodes as nil")
    func nilIsNull() throws {
        #expect(try CBOREncoder().encode(Int?.none) == [0xF6])
        #expect(try CBORDecoder().decode(Int?.self, from: [0xF6]) == nil)
        // {"a": "x", "mm": false, "zeta": 0, "omitted": null}
        let bytes = try #require(Hex.decode("a461616178626d6df4647a65746100676f6d6974746564f6"))
        #expect(try CBORDecoder().decode(Unordered.self, from: bytes) == Unordered(zeta: 0, a: "x", mm: false))
    }

    @Test("an optional field: absent or null is nil, a value is that value, and a wrong type names its path")
    func optionalField() throws {
        func decoded(_ omitted: CBORItem?) throws -> Unordered {
            var entries: [CBORItem.Entry] = [.init(key: .text("a"), value: .text("x")), .init(key: .text("mm"), value: .bool(true))]
            entries.append(.init(key: .text("zeta"), value: .unsigned(1)))
            if let omitted { entries.append(.init(key: .text("omitted"), value: omitted)) }
            return try CBORDecoder().decode(Unordered.self, from: CBORItem.map(entries).encoded())
        }
        #expect(try decoded(nil).omitted == nil)
        #expect(try decoded(.null).omitted == nil)
        #expect(try decoded(.unsigned(7)).omitted == 7)
        #expect(throws: CBORDecodingError.typeMismatch(expected: "integer", path: "omitted")) { try decoded(.text("7")) }
    }

    @Test("optionals of every primitive type: values round-trip, absent and null are nil, a wrong type names its path")
    func primitiveOptionals() throws {
        let full = Optionals(
            bool: true, string: "x", double: 1.5, float: 2.5, int: -1, int8: -8, int16: -16, int32: -32, int64: -64,
            uint: 1, uint8: 8, uint16: 16, uint32: 32, uint64: 64)
        #expect(try CBORDecoder().decode(Optionals.self, from: CBOREncoder().encode(full)) == full)
        #expect(try CBORDecoder().decode(Optionals.self, from: CBOREncoder().encode(Optionals())) == Optionals())
        let names = ["bool", "string", "double", "float", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64"]
        let nulls = CBORItem.map(names.map { .init(key: .text($0), value: .null) })
        #expect(try CBORDecoder().decode(Optionals.self, from: nulls.encoded()) == Optionals())
        #expect(throws: CBORDecodingError.typeMismatch(expected: "text", path: "string")) {
            try CBORDecoder().decode(Optionals.self, from: CBORItem.textMap(["string": .unsigned(1)]).encoded())
        }
        #expect(throws: CBORDecodingError.numberOutOfRange(type: "UInt8", path: "uint8")) {
            try CBORDecoder().decode(Optionals.self, from: CBORItem.textMap(["uint8": .unsigned(256)]).encoded())
        }
    }

    @Test("a date on a whole second is tag 1 with an integer")
    func wholeSecondDate() throws {
        let value = Clocked(at: Date(timeIntervalSince1970: 1_714_849_200))
        #expect(Hex.encode(try CBOREncoder().encode(value)) == "a1626174c11a663685b0")
    }

    @Test("a date with milliseconds is tag 1 with a float, and survives the round trip exactly")
    func millisecondDate() throws {
        let date = Date(timeIntervalSince1970: 1_715_463_000.25)
        let bytes = try CBOREncoder().encode(Clocked(at: date))
        #expect(Hex.encode(bytes) == "a1626174c1fb41d98ff8d6100000")
        #expect(try CBORDecoder().decode(Clocked.self, from: bytes).at == date)
    }

    @Test("dates are rounded to whole milliseconds")
    func dateRounding() throws {
        let precise = Date(timeIntervalSince1970: 1_700_000_000.123_456)
        let decoded = try CBORDecoder().decode(Clocked.self, from: CBOREncoder().encode(Clocked(at: precise))).at
        #expect(decoded == Date(timeIntervalSince1970: 1_700_000_000.123))
    }

    @Test("a receiver rounds seconds × 1000 to the nearest millisecond, a half away from zero (PROTOCOL.md §3.3)",
          arguments: [(0.0005, 1), (-0.0005, -1), (0.0004, 0), (1.0025, 1_003), (-1.0025, -1_003)] as [(Double, Int64)])
    func dateReceiverRounding(seconds: Double, milliseconds: Int64) throws {
        let bytes = CBORItem.textMap(["at": .tagged(1, .float(seconds))]).encoded()
        let decoded = try CBORDecoder().decode(Clocked.self, from: bytes).at
        #expect(decoded == Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    @Test("dates before 1970 use a negative integer")
    func negativeDate() throws {
        let date = Date(timeIntervalSince1970: -86_400)
        let bytes = try CBOREncoder().encode(Clocked(at: date))
        #expect(Hex.encode(bytes) == "a1626174c13a0001517f")
        #expect(try CBORDecoder().decode(Clocked.self, from: bytes).at == date)
    }

    @Test("a date that is not tag 1 is a type mismatch with its path")
    func untaggedDate() throws {
        #expect(throws: CBORDecodingError.typeMismatch(expected: "date (tag 1)", path: "at")) {
            try CBORDecoder().decode(Clocked.self, from: Hex.decode("a16261741a66367cb0") ?? [])
        }
    }

    @Test("a URL is plain text; tag 32 is accepted on input")
    func urlForms() throws {
        let value = Linked(link: URL(string: "https://x.ec/a.png")!)
        let bytes = try CBOREncoder().encode(value)
        #expect(Hex.encode(bytes) == "a1646c696e6b7268747470733a2f2f782e65632f612e706e67")
        #expect(try CBORDecoder().decode(Linked.self, from: bytes) == value)
        let tagged = try #require(Hex.decode("a1646c696e6bd8207268747470733a2f2f782e65632f612e706e67"))
        #expect(try CBORDecoder().decode(Linked.self, from: tagged) == value)
    }

    @Test("a remembered URL is the URL its text parses to, on a miss and on every hit; other text is nil every time")
    func urlInternTable() {
        var generator = SeededGenerator(seed: 0x0A1)
        let texts = (0..<300).map { _ in "https://x.ec/\(Int.random(in: 0..<40, using: &generator))/logo.png?v=\(Int.random(in: 0..<9, using: &generator))" }
        let invalid = ["not a url at all \u{1}", "", "relative/x.png", "::"]
        for text in texts + invalid + texts + invalid {
            let interned = Array(text.utf8).withUnsafeBufferPointer { URLInternTable.shared.url(utf8: $0) }
            #expect(interned == (invalid.contains(text) ? nil : URL(string: text)), "\(text)")
        }
    }

    @Test("text that is not an absolute URL (no scheme, no URL at all, or characters RFC 3986 does not allow) is an invalid value with its path", arguments: [
        "", "relative/x.png", "/logos/x.png", "::", "http://[::1", "https://exa mple.com/x.png", "https://example.com/%zz",
        "https://example.com/x%4", "https://example.com/ñ.png", "https://example.com/a|b", "https://example.com/\"x\"",
    ])
    func invalidURL(text: String) throws {
        let bytes = try CBOREncoder().encode(["link": text])
        #expect(throws: CBORDecodingError.invalidValue(reason: "not an absolute URL", path: "link")) {
            try CBORDecoder().decode(Linked.self, from: bytes)
        }
    }

    @Test("an absolute URL of any scheme decodes, an empty host included (the daemon then finds no such image)", arguments: [
        "https://media.ligapro.ec/logos/x.png", "file:///usr/share/x.png", "https://",
        "https://example.com/a%20b/%C3%B1.png?x=1&y=2#f", "http://[::1]:8080/~u/!$'()*+,;=@",
    ])
    func absoluteURL(text: String) throws {
        let bytes = try CBOREncoder().encode(["link": text])
        #expect(try CBORDecoder().decode(Linked.self, from: bytes).link.absoluteString == text)
    }

    @Test("Foundation's own Codable forms of URL, Data and Date are not accepted")
    func foundationFormsRejected() throws {
        let urlAsMap = CBORItem.textMap(["link": .textMap(["relative": .text("https://x.ec/")])])
        #expect(throws: CBORDecodingError.typeMismatch(expected: "text", path: "link")) {
            try CBORDecoder().decode(Linked.self, from: urlAsMap.encoded())
        }
        let dataAsArray = CBORItem.textMap(["data": .array([.unsigned(1), .unsigned(2)])])
        #expect(throws: CBORDecodingError.typeMismatch(expected: "bytes", path: "data")) {
            try CBORDecoder().decode(Blob.self, from: dataAsArray.encoded())
        }
        let dateAsMap = CBORItem.textMap(["at": .map([])])
        #expect(throws: CBORDecodingError.typeMismatch(expected: "date (tag 1)", path: "at")) {
            try CBORDecoder().decode(Clocked.self, from: dateAsMap.encoded())
        }
    }

    @Test("Data is a byte string")
    func dataIsBytes() throws {
        let value = Blob(data: Data([1, 2, 3, 4]))
        let bytes = try CBOREncoder().encode(value)
        #expect(Hex.encode(bytes) == "a164646174614401020304")
        #expect(try CBORDecoder().decode(Blob.self, from: bytes) == value)
    }

    @Test("nested containers requested by hand encode and decode")
    func nestedContainers() throws {
        let value = Nested(name: "n", scores: [3, 1, 2], inner: ["x": 1, "y": -1])
        let bytes = try CBOREncoder().encode(value)
        // {"name": "n", "inner": {"x": 1, "y": -1}, "scores": [3, 1, 2]}
        #expect(Hex.encode(bytes) == "a3646e616d65616e65696e6e6572a26178016179206673636f72657383030102")
        #expect(try CBORDecoder().decode(Nested.self, from: bytes) == value)
    }

    @Test("maps and arrays of 24 or more entries widen their head")
    func wideHeads() throws {
        let map = Dictionary(uniqueKeysWithValues: (0..<30).map { (String(format: "k%02d", $0), $0) })
        let mapBytes = try CBOREncoder().encode(map)
        #expect(Array(mapBytes.prefix(2)) == [0xB8, 30])
        #expect(try CBORDecoder().decode([String: Int].self, from: mapBytes) == map)
        let array = Array(repeating: "x", count: 300)
        let arrayBytes = try CBOREncoder().encode(array)
        #expect(Array(arrayBytes.prefix(3)) == [0x99, 0x01, 0x2C])
        #expect(try CBORDecoder().decode([String].self, from: arrayBytes) == array)
    }

    @Test("encoding the same key twice is refused (CBOR maps have unique keys), wherever the repeat is",
          arguments: [["same", "same"], ["a", "b", "a"], ["b", "a", "c", "b"]])
    func duplicateKeys(keys: [String]) throws {
        #expect(throws: EncodingError.self) { try CBOREncoder().encode(DuplicateKeys(keys: keys)) }
        #expect(Hex.encode(try CBOREncoder().encode(DuplicateKeys(keys: ["b", "a"]))) == "a2616101616200")
    }

    @Test("unknown keys are ignored, however nested")
    func unknownKeysIgnored() throws {
        // A team with extra keys "rating": 5 and "z": {"deep": [1, {"x": null}]}, and a non-text key 7: 8.
        let team = CBORItem.map([
            .init(key: .text("id"), value: .text("emelec")), .init(key: .text("name"), value: .text("Club Sport Emelec")),
            .init(key: .text("logoURL"), value: .text("https://x.ec/emelec.png")),
            .init(key: .text("dataSource"), value: .text("ligapro-api")), .init(key: .text("rating"), value: .unsigned(5)),
            .init(key: .text("z"), value: .textMap(["deep": .array([.unsigned(1), .textMap(["x": .null])])])),
            .init(key: .unsigned(7), value: .unsigned(8)),
        ])
        let result = CBORItem.textMap(["source": .text("cache"), "value": .array([team]), "next": .text("ignored")])
        let decoded = try CBORDecoder().decode(TeamsResult.self, from: result.encoded())
        #expect(decoded.value.map(\.id) == ["emelec"])
    }

    @Test("a missing required key names its coding path")
    func missingKeyPath() throws {
        var teams = Sample.teams.map(teamValue)
        teams[1] = teamValue(Sample.teams[1], dropping: "name")
        let bytes = CBORItem.textMap(["source": .text("cache"), "value": .array(teams)]).encoded()
        #expect(throws: CBORDecodingError.keyNotFound(path: "value[1].name")) {
            try CBORDecoder().decode(TeamsResult.self, from: bytes)
        }
    }

    @Test("a wrong type names the expected type and the coding path")
    func typeMismatchPath() throws {
        var teams = Sample.teams.map(teamValue)
        teams[2] = teamValue(Sample.teams[2], replacing: "logoURL", with: .unsigned(42))
        let bytes = CBORItem.textMap(["source": .text("cache"), "value": .array(teams)]).encoded()
        #expect(throws: CBORDecodingError.typeMismatch(expected: "text", path: "value[2].logoURL")) {
            try CBORDecoder().decode(TeamsResult.self, from: bytes)
        }
    }

    @Test("null for a required value is valueNotFound")
    func nullRequired() throws {
        let bytes = CBORItem.textMap(["source": .null, "value": .array([])]).encoded()
        #expect(throws: CBORDecodingError.valueNotFound(expected: "text", path: "source")) {
            try CBORDecoder().decode(TeamsResult.self, from: bytes)
        }
    }

    @Test("an unknown enumeration text is an invalid value at its path")
    func unknownEnumValue() throws {
        let bytes = CBORItem.textMap(["source": .text("disk"), "value": .array([])]).encoded()
        #expect(throws: CBORDecodingError.invalidValue(
            reason: "Cannot initialize ResultSource from invalid String value disk", path: "source"
        )) {
            try CBORDecoder().decode(TeamsResult.self, from: bytes)
        }
    }

    @Test("errors come in a fixed order: structure, then source, then value")
    func errorOrder() throws {
        let badTeam = CBORItem.textMap(["id": .unsigned(1)])
        func result(source: CBORItem?, value: CBORItem?) -> [UInt8] {
            var entries: [CBORItem.Entry] = []
            if let value { entries.append(.init(key: .text("value"), value: value)) }
            if let source { entries.append(.init(key: .text("source"), value: source)) }
            return CBORItem.map(entries).encoded()
        }
        #expect(throws: CBORDecodingError.keyNotFound(path: "source")) {
            try CBORDecoder().decode(TeamsResult.self, from: result(source: nil, value: .array([badTeam])))
        }
        #expect(throws: CBORDecodingError.keyNotFound(path: "value")) {
            try CBORDecoder().decode(TeamsResult.self, from: result(source: .text("cache"), value: nil))
        }
        #expect(throws: CBORDecodingError.typeMismatch(expected: "text", path: "value[0].id")) {
            try CBORDecoder().decode(TeamsResult.self, from: result(source: .text("cache"), value: .array([badTeam])))
        }
        let truncated = Array(result(source: .text("remote"), value: .array([badTeam])).dropLast())
        #expect(throws: CBORDecodingError.lengthExceedsInput(offset: truncated.count - 5)) { // "remote" lost its last byte
            try CBORDecoder().decode(TeamsResult.self, from: truncated)
        }
    }

    @Test("integers that do not fit the target type are numberOutOfRange")
    func outOfRange() throws {
        #expect(throws: CBORDecodingError.numberOutOfRange(type: "UInt8", path: "")) {
            try CBORDecoder().decode(UInt8.self, from: [0x19, 0x01, 0x2C])
        }
        #expect(throws: CBORDecodingError.numberOutOfRange(type: "UInt64", path: "")) {
            try CBORDecoder().decode(UInt64.self, from: [0x20])
        }
        #expect(throws: CBORDecodingError.numberOutOfRange(type: "Int64", path: "")) {
            try CBORDecoder().decode(Int64.self, from: Hex.decode("3b8000000000000000") ?? [])
        }
    }

    private func teamValue(_ team: Team) -> CBORItem {
        teamValue(team, dropping: nil)
    }

    private func teamValue(_ team: Team, dropping: String? = nil, replacing: String? = nil, with replacement: CBORItem = .null) -> CBORItem {
        let fields: [(String, CBORItem)] = [
            ("id", .text(team.id)), ("name", .text(team.name)),
            ("logoURL", .text(team.logoURL.absoluteString)), ("dataSource", .text(team.dataSource)),
        ]
        return .map(fields.filter { $0.0 != dropping }.map { .init(key: .text($0.0), value: $0.0 == replacing ? replacement : $0.1) })
    }
}
