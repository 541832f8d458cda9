import FoundationEssentials

/// Writes map entries straight into the output. Keys are text (their `stringValue`);
/// the encoder restores deterministic key order when the map closes.
struct CBORKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let cursor: CBOREncodingCursor
    let reference: CBORContainerReference

    var codingPath: [any CodingKey] {
        let state = cursor.state.pointee
        let pathCount = reference.index < state.open.count ? state.open[reference.index].pathCount : state.path.count
        return Array(state.path.prefix(pathCount))
    }

    /// Starts an entry: closes nested containers left open and writes the key.
    private func writeKey(_ key: Key) throws {
        try cursor.prepareToWrite(index: reference.index, headOffset: reference.headOffset)
        let entryStart = cursor.state.pointee.out.count
        cursor.state.pointee.out.appendCBORText(key.stringValue)
        cursor.state.pointee.entryMarks.append(
            CBOREntryMark(entryStart: entryStart, valueStart: cursor.state.pointee.out.count)
        )
    }

    func encodeNil(forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORNull() }
    func encode(_ value: Bool, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORBool(value) }
    func encode(_ value: String, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORText(value) }
    func encode(_ value: Double, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORDouble(value) }
    func encode(_ value: Float, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORDouble(Double(value)) }
    func encode(_ value: Int, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORSigned(Int64(value)) }
    func encode(_ value: Int8, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORSigned(Int64(value)) }
    func encode(_ value: Int16, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORSigned(Int64(value)) }
    func encode(_ value: Int32, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORSigned(Int64(value)) }
    func encode(_ value: Int64, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORSigned(value) }
    func encode(_ value: UInt, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORUnsigned(UInt64(value)) }
    func encode(_ value: UInt8, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORUnsigned(UInt64(value)) }
    func encode(_ value: UInt16, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORUnsigned(UInt64(value)) }
    func encode(_ value: UInt32, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORUnsigned(UInt64(value)) }
    func encode(_ value: UInt64, forKey key: Key) throws { try writeKey(key); cursor.state.pointee.out.appendCBORUnsigned(value) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try writeKey(key)
        try cursor.encode(value, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(CBORKeyedEncodingContainer<NestedKey>(cursor: cursor, reference: openNested(isMap: true, key: key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        CBORUnkeyedEncodingContainer(cursor: cursor, reference: openNested(isMap: false, key: key))
    }

    /// A nested container is the entry's value; it stays open until this map is
    /// written to again or closes (the encoder writes in one forward pass).
    private func openNested(isMap: Bool, key: Key) -> CBORContainerReference {
        do {
            try writeKey(key)
        } catch {
            cursor.state.pointee.pendingError = error
        }
        let index = cursor.openContainer(isMap: isMap, pathCount: cursor.state.pointee.path.count)
        return CBORContainerReference(index: index, headOffset: cursor.state.pointee.open[index].headOffset)
    }

    func superEncoder() -> any Encoder { unsupportedSuperEncoder() }
    func superEncoder(forKey key: Key) -> any Encoder { unsupportedSuperEncoder() }

    /// A super-encoder would be filled in after later siblings, which a one-pass
    /// encoder cannot do; the wire types never need it.
    private func unsupportedSuperEncoder() -> any Encoder {
        cursor.state.pointee.pendingError = EncodingError.invalidValue(
            0, .init(codingPath: codingPath, debugDescription: "superEncoder is not supported by CBOREncoder")
        )
        return CBORValueEncoder(cursor: cursor, level: cursor.state.pointee.open.count, pathCount: cursor.state.pointee.path.count)
    }
}
