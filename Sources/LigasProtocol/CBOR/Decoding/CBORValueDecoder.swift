import FoundationEssentials

/// The `Decoder` handed to `init(from:)`: one CBOR data item at `offset`. It is also its
/// own single-value container. Two words, so it fits an existential inline.
struct CBORValueDecoder: Decoder, SingleValueDecodingContainer {
    let cursor: CBORCursor
    let offset: Int

    var codingPath: [any CodingKey] { cursor.state.pointee.path }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Indexes the map's text keys (a non-text key cannot match a `CodingKey`: ignored,
    /// like unknown keys). The input was validated before decoding began.
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let reader = cursor.reader
        let head = reader.validatedHead(at: offset)
        guard head.major == .map else { throw cursor.mismatch("map", at: offset, key: nil) }
        let start = cursor.state.pointee.mapEntries.count
        var position = head.end
        for _ in 0..<head.argument {
            let key = reader.validatedHead(at: position)
            if key.major == .text {
                cursor.state.pointee.mapEntries.append(CBORMapEntry(keyStart: key.end, keyCount: Int(key.argument)))
            }
            position = reader.endOfValidatedItem(at: reader.endOfValidatedItem(at: position))
        }
        return KeyedDecodingContainer(
            CBORKeyedDecodingContainer<Key>(cursor: cursor, entries: start..<cursor.state.pointee.mapEntries.count)
        )
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let head = cursor.reader.validatedHead(at: offset)
        guard head.major == .array else { throw cursor.mismatch("array", at: offset, key: nil) }
        return CBORUnkeyedDecodingContainer(cursor: cursor, itemCount: Int(head.argument), currentOffset: head.end)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { cursor.reader.isNull(at: offset) }

    /// Witnesses the primitive requirements too. The value's own path is already on the
    /// stack: it is decoded without a new key.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try cursor.decode(T.self, at: offset, key: nil)
    }
}
