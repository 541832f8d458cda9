import Foundation

/// The `Decoder` handed to `init(from:)`: one CBOR data item at `offset`. It is also its
/// own single-value container. Three words, so it fits an existential inline.
struct CBORValueDecoder: Decoder, SingleValueDecodingContainer {
    let cursor: CBORCursor
    let offset: Int
    let pathCount: Int

    var codingPath: [any CodingKey] { cursor.codingPath(prefix: pathCount) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let reader = cursor.reader
        let head = try reader.head(at: offset)
        guard head.major == .map else { throw cursor.mismatch("map", at: offset, key: nil) }
        let count = try reader.childCount(head)
        let start = cursor.state.pointee.mapEntries.count
        var position = head.end
        for _ in 0..<count {
            let keyHead = try reader.head(at: position)
            if keyHead.major == .text {
                let keyEnd = keyHead.end + Int(keyHead.argument)
                cursor.state.pointee.mapEntries.append(
                    CBORMapEntry(keyStart: keyHead.end, keyCount: Int(keyHead.argument), valueOffset: keyEnd)
                )
                position = reader.endOfValidatedItem(at: keyEnd)
            } else {
                // Non-text keys cannot match a CodingKey: ignored, like unknown keys.
                position = reader.endOfValidatedItem(at: reader.endOfValidatedItem(at: position))
            }
        }
        let indexed = cursor.state.pointee.mapEntries.count - start
        return KeyedDecodingContainer(
            CBORKeyedDecodingContainer<Key>(cursor: cursor, entriesStart: start, entriesCount: indexed, pathCount: pathCount)
        )
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let head = try cursor.reader.head(at: offset)
        guard head.major == .array else { throw cursor.mismatch("array", at: offset, key: nil) }
        let count = try cursor.reader.childCount(head)
        return CBORUnkeyedDecodingContainer(cursor: cursor, pathCount: pathCount, count: count, currentOffset: head.end)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { cursor.decodeNil(at: offset) }

    /// Witnesses the primitive requirements too. The value's own path is already on the
    /// stack: it is decoded without a new key.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try cursor.decode(T.self, at: offset, key: nil)
    }
}
