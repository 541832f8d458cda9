import FoundationEssentials

/// The `Encoder` handed to `encode(to:)` for one value; its own single-value container,
/// writing straight into the output. Two words, so it fits an existential inline.
struct CBORValueEncoder: Encoder, SingleValueEncodingContainer {
    let cursor: CBOREncodingCursor
    /// Index the value's container gets in the open-container stack.
    let level: Int

    var codingPath: [any CodingKey] { cursor.state.pointee.path }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(CBOREncodingContainer<Key>(cursor: cursor, headOffset: containerHead(isMap: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        CBOREncodingContainer<CBORKey>(cursor: cursor, headOffset: containerHead(isMap: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// The value's container: the existing one if `container(...)` is called again,
    /// else a new one.
    private func containerHead(isMap: Bool) -> Int {
        let state = cursor.state
        guard level < state.pointee.open.count else { return cursor.openContainer(isMap: isMap) }
        let existing = state.pointee.open[level]
        if existing.isMap != isMap {
            state.pointee.pendingError = EncodingError.invalidValue(
                level, .init(codingPath: codingPath, debugDescription: "asked for a keyed and an unkeyed container for one value")
            )
        }
        return existing.headOffset
    }

    func encodeNil() { cursor.state.pointee.out.append(CBORConstant.nullByte) }

    /// Witnesses the primitive requirements too.
    func encode<T: Encodable>(_ value: T) throws {
        try cursor.encode(value, key: nil)
    }
}
