import Foundation

/// Writes array items straight into the output; the count is patched in on close.
/// Only the generic `encode` is written: it witnesses every primitive requirement too.
struct CBORUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let cursor: CBOREncodingCursor
    let reference: CBORContainerReference

    var codingPath: [any CodingKey] { cursor.codingPath(of: reference) }

    var count: Int {
        let open = cursor.state.pointee.open
        return reference.index < open.count ? open[reference.index].itemCount : 0
    }

    /// Starts an item: closes nested containers left open and counts the item.
    /// Returns the item's index for the coding path.
    @discardableResult
    private func startItem() throws -> Int {
        try cursor.prepareToWrite(reference)
        let index = cursor.state.pointee.open[reference.index].itemCount
        cursor.state.pointee.open[reference.index].itemCount = index + 1
        return index
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
            cursor: cursor, reference: cursor.openNested(isMap: true) { try startItem() }
        ))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        CBORUnkeyedEncodingContainer(cursor: cursor, reference: cursor.openNested(isMap: false) { try startItem() })
    }

    mutating func superEncoder() -> any Encoder { cursor.unsupportedSuperEncoder(codingPath: codingPath) }
}
