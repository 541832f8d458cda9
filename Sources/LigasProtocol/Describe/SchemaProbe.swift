import FoundationEssentials

/// Reads the wire shape of Codable types by decoding them from nothing: a decoder that hands
/// out placeholder values and writes down every key, type and optionality the type's
/// `init(from:)` asks for. The `Codable` conformance stays the one declaration of a type's
/// fields; `describe` is read off it.
final class SchemaBook {
    /// Named types in the order they were first met.
    private(set) var types: [TypeDescription] = []
    private var known: Set<String> = []

    /// The type expression of `type` (`text`, `[Team]`, `Team`, …), recording the named types
    /// it is made of, and a placeholder value of it (nil when it cannot make one).
    func expression<T: Decodable>(of type: T.Type, named name: String? = nil) -> (text: String, value: T?) {
        if let scalar = Self.scalar(T.self) { return scalar }
        if T.self == [String: String].self { return ("map<text,text>", [String: String]() as? T) }
        if let array = T.self as? any DecodableArray.Type {
            return ("[\(array.elementExpression(in: self))]", array.empty as? T)
        }
        if T.self is DescribedAsMap.Type { return ("map", try? T(from: SchemaProbe(book: SchemaBook()))) }
        if let enumeration = T.self as? any TextEnumeration.Type {
            let typeName = name ?? String(describing: T.self)
            record(TypeDescription.textEnum(typeName, enumeration.wireValues))
            return (typeName, enumeration.firstCase as? T)
        }
        if let custom = T.self as? any CustomWireSchema.Type {
            record(custom.wireSchema)
            for reference in custom.wireReferences { _ = expression(of: reference) }
            return (custom.wireSchema.name, nil)
        }
        let probe = SchemaProbe(book: self)
        let value = try? T(from: probe)
        switch probe.shape {
        case .map(let fields):
            let typeName = name ?? String(describing: T.self)
            record(TypeDescription.map(typeName, fields.fields))
            return (typeName, value)
        case .array(let element):
            return ("[\(element ?? "?")]", value)
        case .single(let text):
            return (text, value)
        case .unknown:
            return ("?", value)
        }
    }

    private func record(_ type: TypeDescription) {
        guard known.insert(type.name).inserted else { return }
        types.append(type)
    }

    private static func scalar<T>(_ type: T.Type) -> (text: String, value: T?)? {
        switch T.self {
        case is String.Type: ("text", "" as? T)
        case is Bool.Type: ("bool", false as? T)
        case is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
            ("uint", (0 as? T) ?? (UInt8(0) as? T) ?? (UInt16(0) as? T) ?? (UInt32(0) as? T) ?? (UInt64(0) as? T) ?? (UInt(0) as? T))
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type:
            ("int", (0 as? T) ?? (Int8(0) as? T) ?? (Int16(0) as? T) ?? (Int32(0) as? T) ?? (Int64(0) as? T))
        case is Double.Type, is Float.Type: ("float", (0.0 as? T) ?? (Float(0) as? T))
        case is Data.Type: ("bytes", Data() as? T)
        case is URL.Type: ("url", URL(string: "ligas:placeholder") as? T)
        case is Date.Type: ("date", Date(timeIntervalSince1970: 0) as? T)
        default: nil
        }
    }
}

/// An array: described as `[Element]`, its placeholder empty (so no element is needed).
protocol DecodableArray {
    static func elementExpression(in book: SchemaBook) -> String
    static var empty: Self { get }
}

extension Array: DecodableArray where Element: Decodable {
    static func elementExpression(in book: SchemaBook) -> String { book.expression(of: Element.self).text }
    static var empty: Self { [] }
}

/// A text enumeration: `describe` lists its values.
public protocol TextEnumeration: CaseIterable, RawRepresentable, Decodable where RawValue == String {}

extension TextEnumeration {
    static var wireValues: [String] { allCases.map(\.rawValue) }
    static var firstCase: Self? { allCases.first }
}

/// A type whose custom coding depends on the data (which method, which alternative), so
/// decoding from nothing cannot show its shape: it states it beside that coding.
protocol CustomWireSchema {
    static var wireSchema: TypeDescription { get }
    /// Named types its schema mentions, described as usual.
    static var wireReferences: [any Decodable.Type] { get }
}

/// The description types themselves: `describe` shows them as plain `map`s.
protocol DescribedAsMap: Decodable {}

/// What a probed value turned out to be.
enum ProbedShape {
    case unknown
    case single(String)
    case map(FieldLog)
    case array(element: String?)
}

final class FieldLog {
    var fields: [FieldDescription] = []
    /// Keys asked `decodeNil(forKey:)`: how the standard `decodeIfPresent` overloads for
    /// `String`, `Int`, … announce an optional field before they call `decode`.
    var nilChecked: Set<String> = []
}

struct ProbeStop: Error {}

final class SchemaProbe: Decoder {
    let book: SchemaBook
    var shape = ProbedShape.unknown
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(book: SchemaBook) { self.book = book }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let log: FieldLog
        if case .map(let existing) = shape { log = existing } else { log = FieldLog(); shape = .map(log) }
        return KeyedDecodingContainer(ProbeKeyedContainer<Key>(book: book, log: log))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        ProbeUnkeyedContainer(probe: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ProbeSingleValueContainer(probe: self)
    }
}

private func placeholder<T: Decodable>(_ type: T.Type, book: SchemaBook, into text: inout String) throws -> T {
    let (expression, value) = book.expression(of: T.self)
    text = expression
    guard let value else { throw ProbeStop() }
    return value
}

struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let book: SchemaBook
    let log: FieldLog
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool {
        log.nilChecked.insert(key.stringValue)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = field(T.self, key, optional: log.nilChecked.contains(key.stringValue))
        guard let value else { throw ProbeStop() }
        return value
    }

    /// An optional field with no placeholder is simply absent: the probe goes on.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        field(T.self, key, optional: true)
    }

    private func field<T: Decodable>(_ type: T.Type, _ key: Key, optional: Bool) -> T? {
        let (text, value) = book.expression(of: T.self)
        log.fields.append(FieldDescription(key.stringValue, text, optional: optional))
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw ProbeStop()
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw ProbeStop() }
    func superDecoder() throws -> any Decoder { throw ProbeStop() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw ProbeStop() }
}

struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let probe: SchemaProbe
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 1 }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= 1 }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        var text = ""
        defer { probe.shape = .array(element: text) }
        return try placeholder(T.self, book: probe.book, into: &text)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw ProbeStop()
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ProbeStop() }
    mutating func superDecoder() throws -> any Decoder { throw ProbeStop() }
}

struct ProbeSingleValueContainer: SingleValueDecodingContainer {
    let probe: SchemaProbe
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        var text = ""
        defer { probe.shape = .single(text) }
        return try placeholder(T.self, book: probe.book, into: &text)
    }
}
