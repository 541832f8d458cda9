import Foundation
@testable import LigasProtocol

/// A JSON value as the vectors' `value` and `typed_value` members hold it. Numbers
/// are integers only: protocol version 1 has no float field other than dates.
indirect enum TypedJSON: Codable, Hashable {
    case object([String: TypedJSON])
    case array([TypedJSON])
    case string(String)
    case unsigned(UInt64)
    case negative(Int64)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let unsigned = try? container.decode(UInt64.self) {
            self = .unsigned(unsigned)
        } else if let signed = try? container.decode(Int64.self) {
            self = .negative(signed)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([TypedJSON].self) {
            self = .array(array)
        } else if let object = try? container.decode([String: TypedJSON].self) {
            self = .object(object)
        } else {
            throw VectorFormatError("not an integer, text, boolean, null, array or object at \(decoder.codingPath)")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let object): try container.encode(object)
        case .array(let array): try container.encode(array)
        case .string(let string): try container.encode(string)
        case .unsigned(let value): try container.encode(value)
        case .negative(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    /// The typed leaves `{"$date": …}`, `{"$bytes": …}` and `{"$url": …}` replaced by
    /// their text: what the plain `value` member holds.
    var untyped: TypedJSON {
        switch self {
        case .object(let object):
            if object.count == 1, let leaf = object.first, TypedJSON.typeMarkers.contains(leaf.key) { return leaf.value }
            return .object(object.mapValues(\.untyped))
        case .array(let array): return .array(array.map(\.untyped))
        default: return self
        }
    }

    static let typeMarkers: Set<String> = ["$date", "$bytes", "$url"]
}

/// Builds a vector's `typed_value` from its CBOR payload and the schema that `describe`
/// publishes (`InterfaceDescription.ligas`): where the schema says `url`, `date` or
/// `bytes`, the leaf is wrapped so that a reader needs no schema to re-encode it.
enum TypedValue {
    static let interface = InterfaceDescription.ligas

    /// The type name (in `describe`'s `types`) of a vector's payload, nil for raw payloads.
    static func rootType(_ payload: VectorPayload) throws -> String? {
        switch payload {
        case .hello: return "Hello"
        case .request: return "Request"
        case .reply(let reply):
            guard let method = interface.methods.first(where: { $0.name == reply.method.name }) else {
                throw VectorFormatError("describe lists no method \(reply.method.name)")
            }
            return method.result
        case .streamHeader: return "StreamHeader"
        case .error: return "ErrorBody"
        case .streamEnd: return "StreamEnd"
        case .streamChunk, .cancel: return nil
        }
    }

    /// JSON text of the typed value of a payload, laid out like `value`.
    static func json(_ payload: VectorPayload, bytes: [UInt8]) throws -> String? {
        guard let type = try rootType(payload) else { return nil }
        let typed = try annotate(try CBORItem.parse(bytes), as: type)
        return String(decoding: try VectorJSON.encoder().encode(typed), as: UTF8.self)
    }

    static func annotate(_ value: CBORItem, as type: String) throws -> TypedJSON {
        switch type {
        case "url":
            switch value {
            case .text(let url), .tagged(32, .text(let url)): return .object(["$url": .string(url)])
            default: throw VectorFormatError("url expected, found \(value)")
            }
        case "date":
            guard case .tagged(1, let seconds) = value else { throw VectorFormatError("date expected, found \(value)") }
            let milliseconds: Int64
            switch seconds {
            case .unsigned(let whole): milliseconds = Int64(whole) * 1000
            case .negative(let minusOne): milliseconds = (-1 - Int64(minusOne)) * 1000
            case .float(let fractional): milliseconds = Int64((fractional * 1000).rounded())
            default: throw VectorFormatError("epoch seconds expected, found \(seconds)")
            }
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            return .object(["$date": .string(VectorJSON.rfc3339(date))])
        case "bytes":
            guard case .bytes(let bytes) = value else { throw VectorFormatError("bytes expected, found \(value)") }
            return .object(["$bytes": .string(Hex.encode(bytes))])
        case _ where type.hasPrefix("[") && type.hasSuffix("]"):
            guard case .array(let items) = value else { throw VectorFormatError("\(type) expected, found \(value)") }
            let element = String(type.dropFirst().dropLast())
            return .array(try items.map { try annotate($0, as: element) })
        default:
            guard let described = interface.types.first(where: { $0.name == type }) else { return try plain(value) }
            guard described.kind != .enum, case .map(let pairs) = value else { return try plain(value) }
            var object: [String: TypedJSON] = [:]
            for pair in pairs {
                guard case .text(let key) = pair.key else { throw VectorFormatError("non-text key in \(type)") }
                object[key] = try annotate(pair.value, as: fieldType(key, of: described, in: value))
            }
            return .object(object)
        }
    }

    /// A field's type expression; `args` of a request takes the method's argument type.
    private static func fieldType(_ key: String, of type: TypeDescription, in map: CBORItem) -> String {
        if type.name == "Request", key == "args", case .text(let name)? = map["method"],
           let arguments = interface.methods.first(where: { $0.name == name })?.arguments {
            return arguments
        }
        return ((type.fields ?? []) + (type.oneOf ?? [])).first { $0.name == key }?.type ?? "map"
    }

    /// A value whose schema type has no typed leaves: text, integers, booleans, and
    /// arrays and maps of them.
    private static func plain(_ value: CBORItem) throws -> TypedJSON {
        switch value {
        case .text(let text): return .string(text)
        case .unsigned(let value): return .unsigned(value)
        case .negative(let minusOne): return .negative(-1 - Int64(minusOne))
        case .bool(let value): return .bool(value)
        case .null: return .null
        case .array(let items): return .array(try items.map(plain))
        case .map(let pairs):
            var object: [String: TypedJSON] = [:]
            for pair in pairs {
                guard case .text(let key) = pair.key else { throw VectorFormatError("non-text key") }
                object[key] = try plain(pair.value)
            }
            return .object(object)
        default:
            throw VectorFormatError("\(value) needs a schema type (date, bytes) the schema does not give")
        }
    }
}

/// A JSON→CBOR encoder that knows nothing of the protocol's Swift types and does not
/// use the library's CBOR code: only the rules a stranger reads in PROTOCOL.md §3.2,
/// §3.3 and §11 (the `$date`, `$bytes` and `$url` leaves), written with the tests' own
/// `CBORItem`. If it reproduces every vector's payload from `typed_value`, the vectors
/// are self-describing.
enum GenericCBOR {
    static func encode(_ value: TypedJSON) throws -> [UInt8] {
        try item(value).encoded() // deterministic: shortest forms, sorted keys
    }

    static func item(_ value: TypedJSON) throws -> CBORItem {
        switch value {
        case .unsigned(let number): return .unsigned(number)
        case .negative(let number): return .negative(UInt64(-1 - number))
        case .string(let text): return .text(text)
        case .bool(let flag): return .bool(flag)
        case .null: return .null
        case .array(let items): return .array(try items.map(item))
        case .object(let object):
            if object.count == 1, let leaf = object.first, leaf.key.hasPrefix("$") {
                guard case .string(let text) = leaf.value else { throw VectorFormatError("\(leaf.key) wants text") }
                return try typed(leaf.key, text)
            }
            return .map(try object.map { .init(key: .text($0.key), value: try item($0.value)) })
        }
    }

    private static func typed(_ marker: String, _ text: String) throws -> CBORItem {
        switch marker {
        case "$url":
            return .text(text) // untagged (tag 32 is accepted, never sent)
        case "$bytes":
            guard let bytes = Hex.decode(text) else { throw VectorFormatError("bad hex \(text)") }
            return .bytes(bytes)
        case "$date":
            let milliseconds = try epochMilliseconds(text)
            guard milliseconds % 1000 != 0 else {
                let seconds = milliseconds / 1000
                return .tagged(1, seconds >= 0 ? .unsigned(UInt64(seconds)) : .negative(UInt64(-1 - seconds)))
            }
            return .tagged(1, .float(Double(milliseconds) / 1000))
        default:
            throw VectorFormatError("unknown type marker \(marker)")
        }
    }

    /// "YYYY-MM-DDTHH:MM:SS.mmmZ" to milliseconds since 1970, by the civil-calendar
    /// arithmetic (no date library).
    static func epochMilliseconds(_ text: String) throws -> Int64 {
        let digits = Array(text.utf8)
        guard digits.count == 24, digits[4] == UInt8(ascii: "-"), digits[10] == UInt8(ascii: "T"),
              digits[19] == UInt8(ascii: "."), digits[23] == UInt8(ascii: "Z")
        else { throw VectorFormatError("not YYYY-MM-DDTHH:MM:SS.mmmZ: \(text)") }
        func number(_ range: Range<Int>) throws -> Int64 {
            guard let value = Int64(String(decoding: digits[range], as: UTF8.self)) else { throw VectorFormatError("bad date \(text)") }
            return value
        }
        let (year, month, day) = (try number(0..<4), try number(5..<7), try number(8..<10))
        let (hour, minute, second, millisecond) = (try number(11..<13), try number(14..<16), try number(17..<19), try number(20..<23))
        // Days from 1970-01-01 to the date (H. Hinnant's days_from_civil).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
    }
}
