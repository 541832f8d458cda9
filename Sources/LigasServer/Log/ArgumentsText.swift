import FoundationEssentials
import LigasProtocol

/// A call's arguments as `name=value` pairs, e.g. `league=serie-a team=emelec`, for the log.
///
/// Read off the arguments' own `Encodable` conformance (their one declaration), so a new
/// method's arguments need nothing here. An `Encoder` rather than `Mirror`: it runs for every
/// logged request, and reflection costs several times more.
public enum ArgumentsText {
    public static func of(_ call: Call) -> String {
        let encoder = PairsEncoder()
        try? call.arguments.encode(to: encoder)
        return encoder.pairs.text
    }
}

private final class Pairs {
    var text = ""

    func add(_ name: String, _ value: String) {
        if !text.isEmpty { text += " " }
        text += name
        text += "="
        text += LoggedText.cut(value)
    }
}

private struct PairsEncoder: Encoder {
    var pairs = Pairs()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(PairsContainer<Key>(pairs: pairs))
    }

    // Arguments are maps; anything else is not logged.
    func unkeyedContainer() -> any UnkeyedEncodingContainer { NothingEncoder().unkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { NothingEncoder().singleValueContainer() }
}

private struct PairsContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let pairs: Pairs
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) {}
    mutating func encode(_ value: String, forKey key: Key) { pairs.add(key.stringValue, value) }
    mutating func encode(_ value: Bool, forKey key: Key) { pairs.add(key.stringValue, "\(value)") }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {
        switch value {
        case let url as URL: pairs.add(key.stringValue, url.absoluteString)
        case let text as any LosslessStringConvertible: pairs.add(key.stringValue, text.description)
        default: pairs.add(key.stringValue, "…")
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        NothingEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { NothingEncoder().unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { NothingEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { NothingEncoder() }
}

/// Swallows what does not fit a flat list of pairs.
private struct NothingEncoder: Encoder, SingleValueEncodingContainer, UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var count: Int { 0 }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(PairsContainer<Key>(pairs: Pairs()))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { self }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }
    mutating func encodeNil() {}
    mutating func encode<T: Encodable>(_ value: T) {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { self }
}
