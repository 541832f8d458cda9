import FoundationEssentials
import Glibc

/// Keyed access to a map whose entries were indexed into the shared entry stack.
/// Unknown keys are simply never looked up (forward compatibility).
///
/// Nested containers obtained with `nestedContainer`/`superDecoder` share this
/// container's path in error messages; the wire types never use them.
struct CBORKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let cursor: CBORCursor
    let entriesStart: Int
    let entriesCount: Int
    let pathCount: Int

    var codingPath: [any CodingKey] { cursor.codingPath(prefix: pathCount) }

    var allKeys: [Key] {
        let reader = cursor.reader
        return cursor.state.pointee.mapEntries[entriesStart..<(entriesStart + entriesCount)].compactMap { entry in
            let keyBytes = UnsafeBufferPointer(rebasing: reader.bytes[entry.keyStart..<(entry.keyStart + entry.keyCount)])
            return Key(stringValue: CBORText.string(validated: keyBytes))
        }
    }

    /// Offset of the value for `key`, or nil. The first occurrence wins.
    private func valueOffset(for key: Key) -> Int? {
        let name = key.stringValue
        if let found = name.utf8.withContiguousStorageIfAvailable({ find($0) }) {
            return found
        }
        return Array(name.utf8).withUnsafeBufferPointer { find($0) }
    }

    private func find(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        let bytes = cursor.reader.bytes
        return cursor.state.pointee.mapEntries.withUnsafeBufferPointer { entries in
            for index in entriesStart..<(entriesStart + entriesCount) {
                let entry = entries[index]
                guard entry.keyCount == name.count else { continue }
                if name.isEmpty { return entry.valueOffset }
                if let base = bytes.baseAddress, let wanted = name.baseAddress,
                   memcmp(base + entry.keyStart, wanted, name.count) == 0 {
                    return entry.valueOffset
                }
            }
            return nil
        }
    }

    private func require(_ key: Key) throws -> Int {
        guard let offset = valueOffset(for: key) else {
            throw CBORDecodingError.keyNotFound(path: cursor.path(appending: key))
        }
        return offset
    }

    func contains(_ key: Key) -> Bool { valueOffset(for: key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { cursor.decodeNil(at: try require(key)) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try cursor.decodeBool(at: require(key), key: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try cursor.decodeString(at: require(key), key: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try cursor.decodeDouble(at: require(key), key: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try cursor.decodeDouble(at: require(key), key: key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(Int.self, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(Int8.self, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(Int16.self, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(Int32.self, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(Int64.self, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(UInt.self, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(UInt8.self, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(UInt16.self, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(UInt32.self, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(UInt64.self, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try cursor.decode(T.self, at: require(key), key: key)
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type, _ key: Key) throws -> I {
        try cursor.decodeInteger(I.self, at: require(key), key: key)
    }

    // Optional fields: one lookup; an absent key and null both mean nil.

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let offset = presentOffset(key) else { return nil }
        return try cursor.decodeString(at: offset, key: key)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let offset = presentOffset(key) else { return nil }
        return try cursor.decodeInteger(Int.self, at: offset, key: key)
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        guard let offset = presentOffset(key) else { return nil }
        return try cursor.decodeInteger(UInt64.self, at: offset, key: key)
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        guard let offset = presentOffset(key) else { return nil }
        return try cursor.decodeInteger(UInt32.self, at: offset, key: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let offset = presentOffset(key) else { return nil }
        return try cursor.decode(T.self, at: offset, key: key)
    }

    private func presentOffset(_ key: Key) -> Int? {
        guard let offset = valueOffset(for: key), !cursor.decodeNil(at: offset) else { return nil }
        return offset
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try CBORValueDecoder(cursor: cursor, offset: require(key), pathCount: pathCount).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try CBORValueDecoder(cursor: cursor, offset: require(key), pathCount: pathCount).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard let key = Key(stringValue: "super") else {
            throw CBORDecodingError.keyNotFound(path: cursor.path(appending: CBORStringKey("super")))
        }
        return try superDecoder(forKey: key)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        CBORValueDecoder(cursor: cursor, offset: try require(key), pathCount: pathCount)
    }
}
