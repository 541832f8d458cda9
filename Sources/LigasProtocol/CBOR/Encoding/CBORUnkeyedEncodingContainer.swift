import FoundationEssentials

/// Writes array items straight into the output; the count is patched in on close.
struct CBORUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let cursor: CBOREncodingCursor
    let reference: CBORContainerReference

    var codingPath: [any CodingKey] {
        let state = cursor.state.pointee
        let pathCount = reference.index < state.open.count ? state.open[reference.index].pathCount : state.path.count
        return Array(state.path.prefix(pathCount))
    }

    var count: Int {
        let open = cursor.state.pointee.open
        return reference.index < open.count ? open[reference.index].itemCount : 0
    }

    /// Starts an item: closes nested containers left open and counts the item.
    /// Returns the item's index for the coding path.
    @discardableResult
    private func startItem() throws -> Int {
        try cursor.prepareToWrite(index: reference.index, headOffset: reference.headOffset)
        let index = cursor.state.pointee.open[reference.index].itemCount
        cursor.state.pointee.open[reference.index].itemCount = index + 1
        return index
    }

    mutating func encodeNil() throws { try startItem(); cursor.state.pointee.out.appendCBORNull() }
    mutating func encode(_ value: Bool) throws { try startItem(); cursor.state.pointee.out.appendCBORBool(value) }
    mutating func encode(_ value: String) throws { try startItem(); cursor.state.pointee.out.appendCBORText(value) }
    mutating func encode(_ value: Double) throws { try startItem(); cursor.state.pointee.out.appendCBORDouble(value) }
    mutating func encode(_ value: Float) throws { try startItem(); cursor.state.pointee.out.appendCBORDouble(Double(value)) }
    mutating func encode(_ value: Int) throws { try startItem(); cursor.state.pointee.out.appendCBORSigned(Int64(value)) }
    mutating func encode(_ value: Int8) throws { try startItem(); cursor.state.pointee.out.appendCBORSigned(Int64(value)) }
    mutating func encode(_ value: Int16) throws { try startItem(); cursor.state.pointee.out.appendCBORSigned(Int64(value)) }
    mutating func encode(_ value: Int32) throws { try startItem(); cursor.state.pointee.out.appendCBORSigned(Int64(value)) }
    mutating func encode(_ value: Int64) throws { try startItem(); cursor.state.pointee.out.appendCBORSigned(value) }
    mutating func encode(_ value: UInt) throws { try startItem(); cursor.state.pointee.out.appendCBORUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { try startItem(); cursor.state.pointee.out.appendCBORUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { try startItem(); cursor.state.pointee.out.appendCBORUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { try startItem(); cursor.state.pointee.out.appendCBORUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { try startItem(); cursor.state.pointee.out.appendCBORUnsigned(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = try startItem()
        try cursor.encode(value, key: CBORIndexKey(index))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(CBORKeyedEncodingContainer<NestedKey>(cursor: cursor, reference: openNested(isMap: true)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        CBORUnkeyedEncodingContainer(cursor: cursor, reference: openNested(isMap: false))
    }

    private func openNested(isMap: Bool) -> CBORContainerReference {
        do {
            try startItem()
        } catch {
            cursor.state.pointee.pendingError = error
        }
        let index = cursor.openContainer(isMap: isMap, pathCount: cursor.state.pointee.path.count)
        return CBORContainerReference(index: index, headOffset: cursor.state.pointee.open[index].headOffset)
    }

    mutating func superEncoder() -> any Encoder {
        cursor.state.pointee.pendingError = EncodingError.invalidValue(
            0, .init(codingPath: codingPath, debugDescription: "superEncoder is not supported by CBOREncoder")
        )
        return CBORValueEncoder(cursor: cursor, level: cursor.state.pointee.open.count, pathCount: cursor.state.pointee.path.count)
    }
}
