import FoundationEssentials
import Glibc

/// Keyed access to a map whose entries were indexed into the shared entry stack; unknown
/// keys are never looked up (forward compatibility). The generic `decode` witnesses every
/// primitive requirement too; `decodeIfPresent` needs an overload per primitive type (see there).
/// Nested containers share this container's path in error messages; the wire types never use them.
struct CBORKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let cursor: CBORCursor
    /// This map's entries in the shared stack.
    let entries: Range<Int>

    var codingPath: [any CodingKey] { cursor.state.pointee.path }

    var allKeys: [Key] {
        let reader = cursor.reader
        return cursor.state.pointee.mapEntries[entries].compactMap { entry in
            let keyBytes = UnsafeBufferPointer(rebasing: reader.bytes[entry.keyStart..<(entry.keyStart + entry.keyCount)])
            return Key(stringValue: String(decoding: keyBytes, as: UTF8.self))
        }
    }

    /// Offset of the value for `key`, or nil: a scan of the map's keys, compared as UTF-8
    /// bytes (the maps are small). The first occurrence wins.
    private func valueOffset(for key: Key) -> Int? {
        var name = key.stringValue
        let bytes = cursor.reader.bytes
        return name.withUTF8 { name in
            cursor.state.pointee.mapEntries.withUnsafeBufferPointer { mapEntries in
                for entry in mapEntries[entries] where entry.keyCount == name.count {
                    if name.isEmpty || memcmp(bytes.baseAddress! + entry.keyStart, name.baseAddress!, name.count) == 0 {
                        return entry.valueOffset
                    }
                }
                return nil
            }
        }
    }

    private func require(_ key: Key) throws -> Int {
        guard let offset = valueOffset(for: key) else {
            throw CBORDecodingError.keyNotFound(path: cursor.path(appending: key))
        }
        return offset
    }

    func contains(_ key: Key) -> Bool { valueOffset(for: key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { cursor.reader.isNull(at: try require(key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try cursor.decode(T.self, at: require(key), key: key)
    }

    /// Nil for an absent or null value. One scan of the keys, where the standard library's
    /// default makes three (`contains`, `decodeNil`, then `decode`).
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let offset = valueOffset(for: key), !cursor.reader.isNull(at: offset) else { return nil }
        return try cursor.decode(T.self, at: offset, key: key)
    }

    // The standard library's own defaults for the primitive types would be chosen over the
    // generic one (a non-generic witness wins), so each primitive is forwarded to it here.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIfPresent(type, key) }

    private func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try decodeIfPresent(type, forKey: key)
    }

    func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key) throws -> KeyedDecodingContainer<Nested> {
        try superDecoder(forKey: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try superDecoder(forKey: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard let key = Key(stringValue: "super") else {
            throw CBORDecodingError.keyNotFound(path: cursor.path(appending: CBORKey.name("super")))
        }
        return try superDecoder(forKey: key)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        CBORValueDecoder(cursor: cursor, offset: try require(key))
    }
}
