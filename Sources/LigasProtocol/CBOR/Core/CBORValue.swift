import FoundationEssentials

/// Any CBOR data item, for callers that need the generic tree (introspection output,
/// diagnostics, tests). Decodable as a member of any `Decodable` type, too.
public indirect enum CBORValue: Hashable, Sendable {
    case unsigned(UInt64)
    /// The integer -1 - n (major type 1), so the full range down to -2^64 is representable.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// Entries in input order; `encoded()` sorts them deterministically.
    case map([Pair])
    case tagged(UInt64, CBORValue)
    case bool(Bool)
    case null
    case undefined
    /// An unassigned simple value (0–19, 32–255).
    case simple(UInt8)
    case float(Double)

    public struct Pair: Hashable, Sendable {
        public var key: CBORValue
        public var value: CBORValue

        public init(_ key: CBORValue, _ value: CBORValue) {
            self.key = key
            self.value = value
        }
    }

    public static func integer(_ value: Int64) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(~value))
    }

    /// Looks up a text key in a map (nil for other values or a missing key).
    public subscript(key: String) -> CBORValue? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == .text(key) }?.value
    }
}

extension CBORValue {
    /// Decodes an already validated item at `offset` (see `CBORReader.skipItem`).
    static func decode(at offset: Int, cursor: CBORCursor) throws -> CBORValue {
        try decode(at: offset, reader: cursor.reader).value
    }

    private static func decode(at offset: Int, reader: CBORReader) throws -> (value: CBORValue, end: Int) {
        let head = try reader.head(at: offset)
        switch head.major {
        case .unsigned:
            return (.unsigned(head.argument), head.end)
        case .negative:
            return (.negative(head.argument), head.end)
        case .bytes:
            let range = try reader.stringContent(head)
            return (.bytes(Array(reader.bytes[range])), range.upperBound)
        case .text:
            let range = try reader.stringContent(head)
            return (.text(CBORText.string(validated: UnsafeBufferPointer(rebasing: reader.bytes[range]))), range.upperBound)
        case .array:
            var items: [CBORValue] = []
            let count = try reader.childCount(head)
            items.reserveCapacity(count)
            var position = head.end
            for _ in 0..<count {
                let (item, end) = try decode(at: position, reader: reader)
                items.append(item)
                position = end
            }
            return (.array(items), position)
        case .map:
            var pairs: [Pair] = []
            let count = try reader.childCount(head)
            pairs.reserveCapacity(count)
            var position = head.end
            for _ in 0..<count {
                let (key, keyEnd) = try decode(at: position, reader: reader)
                let (value, valueEnd) = try decode(at: keyEnd, reader: reader)
                pairs.append(Pair(key, value))
                position = valueEnd
            }
            return (.map(pairs), position)
        case .tag:
            let (content, end) = try decode(at: head.end, reader: reader)
            return (.tagged(head.argument, content), end)
        case .simple:
            let value: CBORValue
            switch head.additionalInfo {
            case 20: value = .bool(false)
            case 21: value = .bool(true)
            case 22: value = .null
            case 23: value = .undefined
            case 25: value = .float(HalfFloat.double(fromBits: UInt16(truncatingIfNeeded: head.argument)))
            case 26: value = .float(Double(Float(bitPattern: UInt32(truncatingIfNeeded: head.argument))))
            case 27: value = .float(Double(bitPattern: head.argument))
            default: value = .simple(UInt8(truncatingIfNeeded: head.argument))
            }
            return (value, head.end)
        }
    }
}

extension CBORValue {
    /// The deterministic encoding (RFC 8949 §4.2.1): map keys sorted bytewise by their
    /// own encoding, shortest heads and floats.
    public func encoded() -> [UInt8] {
        var out = CBOROutput()
        defer { out.deallocate() }
        append(to: &out)
        return Array(out.bytes)
    }

    func append(to out: inout CBOROutput) {
        switch self {
        case .unsigned(let value): out.appendCBORHead(.unsigned, value)
        case .negative(let value): out.appendCBORHead(.negative, value)
        case .bytes(let bytes): bytes.withUnsafeBytes { out.appendCBORBytes($0) }
        case .text(let text): out.appendCBORText(text)
        case .array(let items):
            out.appendCBORHead(.array, UInt64(items.count))
            for item in items { item.append(to: &out) }
        case .map(let pairs):
            out.appendCBORHead(.map, UInt64(pairs.count))
            let encodedPairs = pairs.enumerated().map { (index: $0.offset, key: $0.element.key.encoded(), value: $0.element.value.encoded()) }
            // Ties (duplicate keys, only possible in foreign input) keep their order, so
            // re-encoding a decoded value is idempotent.
            let sorted = encodedPairs.sorted {
                $0.key == $1.key ? $0.index < $1.index : $0.key.lexicographicallyPrecedes($1.key)
            }
            for pair in sorted {
                pair.key.withUnsafeBufferPointer { out.append($0) }
                pair.value.withUnsafeBufferPointer { out.append($0) }
            }
        case .tagged(let tag, let content):
            out.appendCBORTag(tag)
            content.append(to: &out)
        case .bool(let value): out.appendCBORBool(value)
        case .null: out.append(CBORConstant.nullByte)
        case .undefined: out.append(CBORConstant.undefinedByte)
        case .simple(let value):
            if value < 24 { out.append(0xE0 | value) } else { out.append(0xF8); out.append(value) }
        case .float(let value): out.appendCBORDouble(value)
        }
    }
}
