import Foundation
import Testing
@testable import LigasProtocol
import LigasTestSupport

/// RFC 8949 Appendix A examples (the ones that are valid deterministic encodings).
@Suite("CBOR: RFC 8949 Appendix A")
struct CBORAppendixATests {
    static let integers: [(Int64, String)] = [
        (0, "00"), (1, "01"), (10, "0a"), (23, "17"), (24, "1818"), (25, "1819"), (100, "1864"),
        (1000, "1903e8"), (1_000_000, "1a000f4240"), (1_000_000_000_000, "1b000000e8d4a51000"),
        (-1, "20"), (-10, "29"), (-100, "3863"), (-1000, "3903e7"),
        (Int64.max, "1b7fffffffffffffff"), (Int64.min, "3b7fffffffffffffff"),
    ]

    static let floats: [(Double, String)] = [
        (0.0, "f90000"), (-0.0, "f98000"), (1.0, "f93c00"), (1.1, "fb3ff199999999999a"), (1.5, "f93e00"),
        (65504.0, "f97bff"), (100_000.0, "fa47c35000"), (3.4028234663852886e+38, "fa7f7fffff"),
        (1.0e+300, "fb7e37e43c8800759c"), (5.960464477539063e-8, "f90001"), (0.00006103515625, "f90400"),
        (-4.0, "f9c400"), (-4.1, "fbc010666666666666"), (.infinity, "f97c00"), (-.infinity, "f9fc00"),
    ]

    static let strings: [(String, String)] = [
        ("", "60"), ("a", "6161"), ("IETF", "6449455446"), ("\"\\", "62225c"), ("ü", "62c3bc"),
        ("水", "63e6b0b4"), ("𐅑", "64f0908591"),
    ]

    /// Well-formed items of every major type, simple value and tag, none of them a wire type.
    static let generic: [String] = [
        "1bffffffffffffffff", "3bffffffffffffffff", "f4", "f5", "f6", "f7", "f0", "f8ff",
        "c074323031332d30332d32315432303a30343a30305a", "c11a514b67b0", "c1fb41d452d9ec200000",
        "d74401020304", "d818456449455446", "d82076687474703a2f2f7777772e6578616d706c652e636f6d",
        "40", "4401020304", "80", "83010203", "8301820203820405",
        "98190102030405060708090a0b0c0d0e0f101112131415161718181819",
        "a0", "a201020304", "a26161016162820203", "826161a161626163", "a56161614161626142616361436164614461656145",
    ]

    @Test("integers encode in the shortest form and decode back", arguments: integers)
    func integer(value: Int64, hex: String) throws {
        #expect(Hex.encode(try CBOREncoder().encode(value)) == hex)
        #expect(try CBORDecoder().decode(Int64.self, from: Hex.decode(hex) ?? []) == value)
    }

    @Test("floats use the shortest width that keeps the exact value", arguments: floats)
    func float(value: Double, hex: String) throws {
        #expect(Hex.encode(try CBOREncoder().encode(value)) == hex)
        let decoded = try CBORDecoder().decode(Double.self, from: Hex.decode(hex) ?? [])
        #expect(decoded == value && decoded.sign == value.sign)
    }

    @Test("half precision is chosen for exactly the floats that Float16 holds, with its bit patterns")
    func halfPrecision() {
        var wrong: [UInt16] = []
        for bits in UInt16.min...UInt16.max where !Float16(bitPattern: bits).isNaN {
            let half = Float16(bitPattern: bits)
            if HalfFloat.exactBits(of: Float(half)) != bits || HalfFloat.double(fromBits: bits) != Double(half) { wrong.append(bits) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
        var generator = SeededGenerator(seed: 0xF16)
        for _ in 0..<20_000 {
            let value = Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &generator) & 0xFFFF_E000) // often exact in half
            guard !value.isNaN else { continue }
            let expected = Float(Float16(value)) == value ? Float16(value).bitPattern : nil
            #expect(HalfFloat.exactBits(of: value) == expected, "\(value)")
        }
    }

    @Test("NaN is written as the canonical half NaN f97e00")
    func nan() throws {
        #expect(Hex.encode(try CBOREncoder().encode(Double.nan)) == "f97e00")
        #expect(Hex.encode(try CBOREncoder().encode(Double(bitPattern: 0x7FF8_0000_0000_0001))) == "f97e00")
        #expect(try CBORDecoder().decode(Double.self, from: [0xF9, 0x7E, 0x00]).isNaN)
    }

    @Test("text strings are UTF-8 with a length head", arguments: strings)
    func text(value: String, hex: String) throws {
        #expect(Hex.encode(try CBOREncoder().encode(value)) == hex)
        #expect(try CBORDecoder().decode(String.self, from: Hex.decode(hex) ?? []) == value)
    }

    @Test("arrays and maps from Swift collections", arguments: [
        ([Int](), "80"), ([1, 2, 3], "83010203"), (Array(1...25), "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
    ])
    func arrays(value: [Int], hex: String) throws {
        #expect(Hex.encode(try CBOREncoder().encode(value)) == hex)
        #expect(try CBORDecoder().decode([Int].self, from: Hex.decode(hex) ?? []) == value)
    }

    @Test("a dictionary's keys come out sorted whatever its iteration order")
    func dictionary() throws {
        let value = ["e": "E", "a": "A", "d": "D", "b": "B", "c": "C"]
        #expect(Hex.encode(try CBOREncoder().encode(value)) == "a56161614161626142616361436164614461656145")
        #expect(try CBORDecoder().decode([String: String].self, from: Hex.decode("a56161614161626142616361436164614461656145") ?? []) == value)
    }

    @Test("well-formed items of every kind pass the decoder's validation (and the tests' own parser round-trips them)",
          arguments: generic)
    func genericItemsAccepted(hex: String) throws {
        let bytes = try #require(Hex.decode(hex))
        #expect(throws: Never.self) { try CBORDecoder().decode(AnyWellFormed.self, from: bytes) }
        #expect(Hex.encode(try CBORItem.parse(bytes).encoded()) == hex)
    }

    @Test("the tests' diagnostic notation of some Appendix A items (the vectors' payload_diagnostic)", arguments: [
        ("c11a514b67b0", "1(1363896240)"), ("8301820203820405", "[1, [2, 3], [4, 5]]"),
        ("a26161016162820203", "{\"a\": 1, \"b\": [2, 3]}"), ("4401020304", "h'01020304'"),
        ("3bffffffffffffffff", "-18446744073709551616"), ("f8ff", "simple(255)"), ("f97c00", "Infinity"),
    ])
    func diagnostic(hex: String, expected: String) throws {
        #expect(try CBORItem.parse(Hex.decode(hex) ?? []).diagnostic == expected)
    }

    @Test("indefinite-length items of Appendix A are rejected (deterministic encoding only)", arguments: [
        "5f42010243030405ff", "7f657374726561646d696e67ff", "9fff", "9f018202039f0405ffff", "bf61610161629f0203ffff",
    ])
    func indefiniteRejected(hex: String) throws {
        #expect(throws: CBORDecodingError.malformed(reason: "indefinite length is not allowed", offset: 0)) {
            try CBORDecoder().decode(AnyWellFormed.self, from: Hex.decode(hex) ?? [])
        }
    }
}
