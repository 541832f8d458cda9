import FoundationEssentials

/// An open map (as a keyed container) or array (as an unkeyed one, with `CBORKey`), writing
/// straight into the output; when it closes the encoder patches in its count and puts a
/// map's text keys in deterministic order. The generic `encode` witnesses every primitive
/// requirement too.
struct CBOREncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol, UnkeyedEncodingContainer {
    let cursor: CBOREncodingCursor
    /// Identifies the container (see `CBOROpenContainer`).
    let headOffset: Int

    var codingPath: [any CodingKey] { cursor.state.pointee.path }
    var count: Int { cursor.index(of: headOffset).map { cursor.state.pointee.open[$0].itemCount } ?? 0 }

    // MARK: Map

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

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(CBOREncodingContainer<NestedKey>(
            cursor: cursor, headOffset: cursor.openNested(isMap: true) { try writeKey(key) }
        ))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        CBOREncodingContainer<CBORKey>(cursor: cursor, headOffset: cursor.openNested(isMap: false) { try writeKey(key) })
    }

    func superEncoder() -> any Encoder { cursor.unsupportedSuperEncoder() }
    func superEncoder(forKey key: Key) -> any Encoder { cursor.unsupportedSuperEncoder() }

    // MARK: Array

    /// Starts an item: closes nested containers left open and counts the item.
    /// Returns the item's index for the coding path.
    @discardableResult
    private func startItem() throws -> Int {
        let index = try cursor.prepareToWrite(headOffset)
        defer { cursor.state.pointee.open[index].itemCount += 1 }
        return cursor.state.pointee.open[index].itemCount
    }

    func encodeNil() throws {
        try startItem()
        cursor.state.pointee.out.append(CBORConstant.nullByte)
    }

    func encode<T: Encodable>(_ value: T) throws {
        let index = try startItem()
        try cursor.encode(value, key: CBORKey.index(index))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(CBOREncodingContainer<NestedKey>(
            cursor: cursor, headOffset: cursor.openNested(isMap: true) { try startItem() }
        ))
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        CBOREncodingContainer<CBORKey>(cursor: cursor, headOffset: cursor.openNested(isMap: false) { try startItem() })
    }
}
