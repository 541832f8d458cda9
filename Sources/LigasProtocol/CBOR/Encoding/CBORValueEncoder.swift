import FoundationEssentials

/// The `Encoder` handed to `encode(to:)` for one value. It is also its own
/// single-value container, writing straight into the output. Three words, so it fits
/// an existential inline.
struct CBORValueEncoder: Encoder, SingleValueEncodingContainer {
    let cursor: CBOREncodingCursor
    /// Index the value's container gets in the open-container stack.
    let level: Int
    let pathCount: Int

    var codingPath: [any CodingKey] { Array(cursor.state.pointee.path.prefix(pathCount)) }
    var userInfo: [CodingUserInfoKey: Any] { cursor.state.pointee.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(CBORKeyedEncodingContainer<Key>(cursor: cursor, reference: containerReference(isMap: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        CBORUnkeyedEncodingContainer(cursor: cursor, reference: containerReference(isMap: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// The value's container: the existing one if `container(...)` is called again,
    /// else a new one.
    private func containerReference(isMap: Bool) -> CBORContainerReference {
        let state = cursor.state
        if level < state.pointee.open.count {
            let existing = state.pointee.open[level]
            if existing.isMap != isMap {
                state.pointee.pendingError = EncodingError.invalidValue(
                    level, .init(codingPath: codingPath, debugDescription: "asked for a keyed and an unkeyed container for one value")
                )
            }
            return CBORContainerReference(index: level, headOffset: existing.headOffset)
        }
        let index = cursor.openContainer(isMap: isMap, pathCount: pathCount)
        return CBORContainerReference(index: index, headOffset: state.pointee.open[index].headOffset)
    }

    // MARK: SingleValueEncodingContainer

    func encodeNil() { cursor.state.pointee.out.appendCBORNull() }
    func encode(_ value: Bool) { cursor.state.pointee.out.appendCBORBool(value) }
    func encode(_ value: String) { cursor.state.pointee.out.appendCBORText(value) }
    func encode(_ value: Double) { cursor.state.pointee.out.appendCBORDouble(value) }
    func encode(_ value: Float) { cursor.state.pointee.out.appendCBORDouble(Double(value)) }
    func encode(_ value: Int) { cursor.state.pointee.out.appendCBORSigned(Int64(value)) }
    func encode(_ value: Int8) { cursor.state.pointee.out.appendCBORSigned(Int64(value)) }
    func encode(_ value: Int16) { cursor.state.pointee.out.appendCBORSigned(Int64(value)) }
    func encode(_ value: Int32) { cursor.state.pointee.out.appendCBORSigned(Int64(value)) }
    func encode(_ value: Int64) { cursor.state.pointee.out.appendCBORSigned(value) }
    func encode(_ value: UInt) { cursor.state.pointee.out.appendCBORUnsigned(UInt64(value)) }
    func encode(_ value: UInt8) { cursor.state.pointee.out.appendCBORUnsigned(UInt64(value)) }
    func encode(_ value: UInt16) { cursor.state.pointee.out.appendCBORUnsigned(UInt64(value)) }
    func encode(_ value: UInt32) { cursor.state.pointee.out.appendCBORUnsigned(UInt64(value)) }
    func encode(_ value: UInt64) { cursor.state.pointee.out.appendCBORUnsigned(value) }

    func encode<T: Encodable>(_ value: T) throws {
        try cursor.encode(value, key: nil)
    }
}

/// Identifies an open container: its stack index plus its head offset, which is
/// unique over the whole encode call, so a stale container is detected.
struct CBORContainerReference {
    let index: Int
    let headOffset: Int
}
