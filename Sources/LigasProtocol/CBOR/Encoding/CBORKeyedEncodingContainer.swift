import Foundation

/// Writes map entries straight into the output. Keys are text (their `stringValue`);
/// the encoder restores deterministic key order when the map closes. Only the generic
/// `encode` is written: it witnesses every primitive requirement too.
struct CBORKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let cursor: CBOREncodingCursor
    /// Identifies the map (see `CBOROpenContainer`).
    let headOffset: Int

    var codingPath: [any CodingKey] { cursor.state.pointee.path }

    /// Starts an entry: closes nested containers left open and writes the key.
    private func writeKey(_ key: Key) throws {
        try cursor.prepareToWrite(headOffset)
        let entryStart = cursor.state.pointee.out.count
        cursor.state.pointee.out.appendCBORText(key.stringValue)
        cursor.state.pointee.entryMarks.append((entryStart, cursor.state.pointee.out.count))
    }

    func encodeNil(forKey key: Key) throws {
        try writeKey(key)
        cursor.state.pointee.out.append(CBORConstant.nullByte)
    }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try writeKey(key)
        try cursor.encode(value, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(CBORKeyedEncodingContainer<NestedKey>(
            cursor: cursor, headOffset: cursor.openNested(isMap: true) { try writeKey(key) }
        ))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        CBORUnkeyedEncodingContainer(cursor: cursor, headOffset: cursor.openNested(isMap: false) { try writeKey(key) })
    }

    func superEncoder() -> any Encoder { cursor.unsupportedSuperEncoder() }
    func superEncoder(forKey key: Key) -> any Encoder { cursor.unsupportedSuperEncoder() }
}
