import FoundationEssentials

/// The `Decoder` handed to `init(from:)`: one CBOR data item at `offset`. It is also its
/// own single-value container. Three words, so it fits an existential inline.
struct CBORValueDecoder: Decoder, SingleValueDecodingContainer {
    let cursor: CBORCursor
    let offset: Int
    let pathCount: Int

    var codingPath: [any CodingKey] { cursor.codingPath(prefix: pathCount) }
    var userInfo: [CodingUserInfoKey: Any] { cursor.state.pointee.userInfo }

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
    func decode(_ type: Bool.Type) throws -> Bool { try cursor.decodeBool(at: offset, key: nil) }
    func decode(_ type: String.Type) throws -> String { try cursor.decodeString(at: offset, key: nil) }
    func decode(_ type: Double.Type) throws -> Double { try cursor.decodeDouble(at: offset, key: nil) }
    func decode(_ type: Float.Type) throws -> Float { Float(try cursor.decodeDouble(at: offset, key: nil)) }
    func decode(_ type: Int.Type) throws -> Int { try cursor.decodeInteger(Int.self, at: offset, key: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try cursor.decodeInteger(Int8.self, at: offset, key: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try cursor.decodeInteger(Int16.self, at: offset, key: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try cursor.decodeInteger(Int32.self, at: offset, key: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try cursor.decodeInteger(Int64.self, at: offset, key: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try cursor.decodeInteger(UInt.self, at: offset, key: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try cursor.decodeInteger(UInt8.self, at: offset, key: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try cursor.decodeInteger(UInt16.self, at: offset, key: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try cursor.decodeInteger(UInt32.self, at: offset, key: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try cursor.decodeInteger(UInt64.self, at: offset, key: nil) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // The value's own path is already on the stack: decode it without a new key.
        try cursor.decode(T.self, at: offset, key: nil)
    }
}
