import FoundationEssentials

/// Reads the wire shape of Codable types by decoding them from nothing: a decoder hands out
/// placeholders and writes down every key, type and optionality `init(from:)` asks for, so
/// the `Codable` conformance stays the one declaration of a type's fields.
final class SchemaBook {
    /// Named types in the order they were first met.
    private(set) var types: [TypeDescription] = []

    /// The type expression of `type` (`text`, `[Team]`, `Team`, …), recording the named types
    /// it is made of, and a placeholder value of it (nil when it cannot make one).
    func expression<T: Decodable>(of type: T.Type, named name: String? = nil) -> (text: String, value: T?) {
        if let scalar = Self.scalar(T.self) { return scalar }
        if T.self == [String: String].self { return ("map<text,text>", [String: String]() as? T) }
        if let array = T.self as? any DecodableArray.Type {
            return ("[\(array.elementExpression(in: self))]", array.empty as? T)
        }
        if T.self is DescribedAsMap.Type { return ("map", try? T(from: SchemaProbe(book: SchemaBook()))) }
        let typeName = name ?? String(describing: T.self)
        if let enumeration = T.self as? any TextEnumeration.Type {
            record(TypeDescription(name: typeName, kind: .enum, values: enumeration.wireValues))
            return (typeName, enumeration.firstCase as? T)
        }
        if let custom = T.self as? any CustomWireSchema.Type {
            record(custom.wireSchema)
            for reference in custom.wireReferences { _ = expression(of: reference) }
            return (custom.wireSchema.name, nil)
        }
        let probe = SchemaProbe(book: self)
        let value = try? T(from: probe)
        guard let fields = probe.fields else { return (probe.singleValue ?? "?", value) }
        record(TypeDescription(name: typeName, kind: .map, fields: fields))
        return (typeName, value)
    }

    private func record(_ type: TypeDescription) {
        if !types.contains(where: { $0.name == type.name }) { types.append(type) }
    }

    private static func scalar<T>(_ type: T.Type) -> (text: String, value: T?)? {
        if let integer = T.self as? any FixedWidthInteger.Type { return (integer.isSigned ? "int" : "uint", integer.zero as? T) }
        if let float = T.self as? any BinaryFloatingPoint.Type { return ("float", float.zero as? T) }
        return switch T.self {
        case is String.Type: ("text", "" as? T)
        case is Bool.Type: ("bool", false as? T)
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

/// Stops a probe where it cannot go on (no placeholder, or a container the wire types
/// never ask for: arrays are read off their element type, not decoded by hand).
struct ProbeStop: Error {}

/// The decoder handed to `init(from:)`; also its own single-value container.
final class SchemaProbe: Decoder, SingleValueDecodingContainer {
    let book: SchemaBook
    /// The fields asked for, in order, once the type asked for a keyed container.
    var fields: [FieldDescription]?
    /// Keys asked `decodeNil(forKey:)`: how the standard `decodeIfPresent` overloads for
    /// `String`, `Int`, … announce an optional field before they call `decode`.
    var nilChecked: Set<String> = []
    /// The expression of the value asked for through a single-value container.
    var singleValue: String?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(book: SchemaBook) { self.book = book }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        fields = fields ?? []
        return KeyedDecodingContainer(ProbeKeyedContainer<Key>(probe: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ProbeStop() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let value = placeholder(T.self, field: nil) else { throw ProbeStop() }
        return value
    }

    /// A placeholder of `T`, writing down its expression as the field `key` or as the value.
    func placeholder<T: Decodable>(_ type: T.Type, field key: String?, optional: Bool = false) -> T? {
        let (text, value) = book.expression(of: T.self)
        if let key { fields?.append(FieldDescription(name: key, type: text, optional: optional)) } else { singleValue = text }
        return value
    }
}

struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: SchemaProbe
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool {
        probe.nilChecked.insert(key.stringValue)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let optional = probe.nilChecked.contains(key.stringValue)
        guard let value = probe.placeholder(T.self, field: key.stringValue, optional: optional) else { throw ProbeStop() }
        return value
    }

    /// An optional field with no placeholder is simply absent: the probe goes on.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        probe.placeholder(T.self, field: key.stringValue, optional: true)
    }

    func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key) throws -> KeyedDecodingContainer<Nested> {
        throw ProbeStop()
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw ProbeStop() }
    func superDecoder() throws -> any Decoder { throw ProbeStop() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw ProbeStop() }
}
