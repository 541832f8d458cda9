// The tests' and the fuzzer's own CBOR (RFC 8949): a generic item tree with a strict parser,
// a deterministic writer and diagnostic notation. It shares no code with LigasProtocol's
// codec on purpose, so it can serve as an independent oracle for it; for the same reason it
// imports nothing (scripts/fuzz-protocol compiles it together with the library's sources).

/// Any CBOR data item.
indirect enum CBORItem: Hashable, Sendable {
    case unsigned(UInt64)
    /// The integer -1 - n (major type 1).
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORItem])
    /// Entries in input order; `encoded()` sorts them.
    case map([Entry])
    case tagged(UInt64, CBORItem)
    case bool(Bool)
    case null
    case undefined
    /// An unassigned simple value (0–19, 32–255).
    case simple(UInt8)
    case float(Double)

    struct Entry: Hashable, Sendable {
        var key: CBORItem
        var value: CBORItem
    }

    /// A map with text keys, in the given order.
    static func textMap(_ entries: KeyValuePairs<String, CBORItem>) -> CBORItem {
        .map(entries.map { Entry(key: .text($0.key), value: $0.value) })
    }

    /// The value of the first entry with this text key, if this is a map.
    subscript(key: String) -> CBORItem? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == .text(key) }?.value
    }
}

// MARK: Parsing

struct CBORParseError: Error, CustomStringConvertible {
    let offset: Int
    let reason: String
    var description: String { "\(reason) at byte \(offset)" }
}

extension CBORItem {
    /// Parses exactly one item by the receiver rules of PROTOCOL.md §3.4: definite lengths
    /// only, no reserved additional information, no two-byte simple value below 32, valid
    /// UTF-8, at most `maxDepth` nested arrays, maps and tags, nothing after the item.
    static func parse(_ bytes: [UInt8], maxDepth: Int = 64) throws -> CBORItem {
        var parser = Parser(bytes: bytes, maxDepth: maxDepth)
        let item = try parser.item(depth: 0)
        guard parser.position == bytes.count else { throw CBORParseError(offset: parser.position, reason: "trailing bytes") }
        return item
    }

    private struct Parser {
        let bytes: [UInt8]
        let maxDepth: Int
        var position = 0

        mutating func take(_ count: UInt64) throws -> ArraySlice<UInt8> {
            guard count <= UInt64(bytes.count - position) else { throw CBORParseError(offset: position, reason: "truncated") }
            defer { position += Int(count) }
            return bytes[position..<(position + Int(count))]
        }

        mutating func item(depth: Int) throws -> CBORItem {
            let start = position
            let initial = try take(1).first!
            let major = initial >> 5
            let info = initial & 0x1F
            var argument = UInt64(info)
            switch info {
            case 0..<24: break
            case 24...27: argument = try take(1 << UInt64(info - 24)).reduce(0) { $0 << 8 | UInt64($1) }
            default: throw CBORParseError(offset: start, reason: "additional information \(info)")
            }
            if major >= 4, major <= 6, depth >= maxDepth { throw CBORParseError(offset: start, reason: "too deep") }
            switch major {
            case 0: return .unsigned(argument)
            case 1: return .negative(argument)
            case 2: return .bytes(Array(try take(argument)))
            case 3:
                let content = try take(argument)
                guard let text = String(validating: content, as: UTF8.self) else {
                    throw CBORParseError(offset: start, reason: "invalid UTF-8")
                }
                return .text(text)
            case 4:
                // Every item is at least one byte: a count beyond the input is truncated.
                guard argument <= UInt64(bytes.count - position) else { throw CBORParseError(offset: start, reason: "truncated") }
                return .array(try (0..<argument).map { _ in try item(depth: depth + 1) })
            case 5:
                guard argument <= UInt64(bytes.count - position) else { throw CBORParseError(offset: start, reason: "truncated") }
                return .map(try (0..<argument).map { _ in Entry(key: try item(depth: depth + 1), value: try item(depth: depth + 1)) })
            case 6: return .tagged(argument, try item(depth: depth + 1))
            default: return try simple(info: info, argument: argument, at: start)
            }
        }

        func simple(info: UInt8, argument: UInt64, at start: Int) throws -> CBORItem {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            case 24 where argument < 32: throw CBORParseError(offset: start, reason: "two-byte simple value below 32")
            case 25: return .float(Double(Float16(bitPattern: UInt16(argument))))
            case 26: return .float(Double(Float(bitPattern: UInt32(argument))))
            case 27: return .float(Double(bitPattern: argument))
            default: return .simple(UInt8(argument))
            }
        }
    }
}

// MARK: Deterministic encoding

extension CBORItem {
    /// The core deterministic encoding (RFC 8949 §4.2.1): shortest heads and floats, map
    /// entries sorted by their encoded keys (ties keep their order).
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        append(to: &out)
        return out
    }

    private func append(to out: inout [UInt8]) {
        switch self {
        case .unsigned(let value): Self.head(0, value, &out)
        case .negative(let value): Self.head(1, value, &out)
        case .bytes(let bytes): Self.head(2, UInt64(bytes.count), &out); out += bytes
        case .text(let text): Self.head(3, UInt64(text.utf8.count), &out); out += text.utf8
        case .array(let items):
            Self.head(4, UInt64(items.count), &out)
            for item in items { item.append(to: &out) }
        case .map(let entries):
            Self.head(5, UInt64(entries.count), &out)
            let encoded = entries.map { (key: $0.key.encoded(), value: $0.value.encoded()) }
            for entry in encoded.enumerated().sorted(by: { lhs, rhs in
                lhs.element.key == rhs.element.key ? lhs.offset < rhs.offset : lhs.element.key.lexicographicallyPrecedes(rhs.element.key)
            }) {
                out += entry.element.key + entry.element.value
            }
        case .tagged(let tag, let content): Self.head(6, tag, &out); content.append(to: &out)
        case .bool(let value): out.append(value ? 0xF5 : 0xF4)
        case .null: out.append(0xF6)
        case .undefined: out.append(0xF7)
        case .simple(let value): value < 24 ? out.append(0xE0 | value) : out.append(contentsOf: [0xF8, value])
        case .float(let value):
            if value.isNaN {
                out += [0xF9, 0x7E, 0x00]
            } else if Double(Float16(value)) == value {
                out.append(0xF9); Self.bigEndian(UInt64(Float16(value).bitPattern), 2, &out)
            } else if Double(Float(value)) == value {
                out.append(0xFA); Self.bigEndian(UInt64(Float(value).bitPattern), 4, &out)
            } else {
                out.append(0xFB); Self.bigEndian(value.bitPattern, 8, &out)
            }
        }
    }

    /// The shortest head: the argument in the initial byte below 24, else in 1, 2, 4 or 8 bytes.
    private static func head(_ major: UInt8, _ argument: UInt64, _ out: inout [UInt8]) {
        switch argument {
        case ..<24: out.append(major << 5 | UInt8(argument))
        case ..<0x100: out.append(major << 5 | 24); bigEndian(argument, 1, &out)
        case ..<0x1_0000: out.append(major << 5 | 25); bigEndian(argument, 2, &out)
        case ..<0x1_0000_0000: out.append(major << 5 | 26); bigEndian(argument, 4, &out)
        default: out.append(major << 5 | 27); bigEndian(argument, 8, &out)
        }
    }

    private static func bigEndian(_ value: UInt64, _ width: Int, _ out: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }
}

// MARK: Diagnostic notation

extension CBORItem: CustomStringConvertible {
    var description: String { diagnostic }

    /// RFC 8949 §8 diagnostic notation, as the golden vectors' `payload_diagnostic` shows it.
    var diagnostic: String {
        switch self {
        case .unsigned(let value): String(value)
        case .negative(let value): value == .max ? "-18446744073709551616" : "-" + String(value + 1)
        case .bytes(let bytes): "h'" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "'"
        case .text(let text): Self.quoted(text)
        case .array(let items): "[" + items.map(\.diagnostic).joined(separator: ", ") + "]"
        case .map(let entries): "{" + entries.map { "\($0.key.diagnostic): \($0.value.diagnostic)" }.joined(separator: ", ") + "}"
        case .tagged(let tag, let content): "\(tag)(\(content.diagnostic))"
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        case .undefined: "undefined"
        case .simple(let value): "simple(\(value))"
        case .float(let value) where value.isNaN: "NaN"
        case .float(let value) where value.isInfinite: value < 0 ? "-Infinity" : "Infinity"
        case .float(let value): "\(value)"
        }
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// Decodes from any well-formed item and keeps nothing: what a `CBORDecoder` accepts as this
/// is exactly what its validation pass accepts.
struct AnyWellFormed: Decodable {
    init(from decoder: any Decoder) {}
}
