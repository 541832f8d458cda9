import Foundation

/// Writes array items straight into the output; the count is patched in on close.
/// Only the generic `encode` is written: it witnesses every primitive requirement too.
struct CBORUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let cursor: CBOREncodingCursor
    /// Identifies the array (see `CBOROpenContainer`).
    let headOffset: Int

    var codingPath: [any CodingKey] { cursor.state.pointee.path }
    var count: Int { cursor.index(of: headOffset).map { cursor.state.pointee.open[$0].itemCount } ?? 0 }

    /// Starts an item: closes nested containers left open and counts the item.
    /// Returns the item's index for the coding path.
    @discardableResult
    private func startItem() throws -> Int {
        let index = try cursor.prepareToWrite(headOffset)
        defer { cursor.state.pointee.open[index].itemCount += 1 }
        return cursor.state.pointee.open[index].itemCount
    }

    mutating func encodeNil() throws {
        try startItem()
        cursor.state.pointee.out.append(CBORConstant.nullByte)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = try startItem()
        try cursor.encode(value, key: CBORIndexKey(index))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(CBORKeyedEncodingContainer<NestedKey>(
            cursor: cursor, headOffset: cursor.openNested(isMap: true) { try startItem() }
        ))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        CBORUnkeyedEncodingContainer(cursor: cursor, headOffset: cursor.openNested(isMap: false) { try startItem() })
    }

    mutating func superEncoder() -> any Encoder { cursor.unsupportedSuperEncoder() }
}
