import FoundationEssentials

/// Decodes values at given offsets of the input for the decoder and its containers; a
/// single pointer, so copying it is free. Coding keys are autoclosures: they are needed only
/// for error messages, and boxing one into an existential on every field showed in profiles.
struct CBORCursor {
    let state: UnsafeMutablePointer<CBORDecodingState>

    var reader: CBORReader { state.pointee.reader }

    // MARK: Paths

    func path(appending key: @autoclosure () -> (any CodingKey)?) -> String {
        var keys = state.pointee.path
        if let key = key() { keys.append(key) }
        return CBORCodingPath.render(keys)
    }

    /// A type mismatch, or `valueNotFound` when the value is null.
    func mismatch(_ expected: String, at offset: Int, key: @autoclosure () -> (any CodingKey)?) -> CBORDecodingError {
        reader.isNull(at: offset)
            ? .valueNotFound(expected: expected, path: path(appending: key()))
            : .typeMismatch(expected: expected, path: path(appending: key()))
    }

    // MARK: Primitives

    func decodeBool(at offset: Int, key: @autoclosure () -> (any CodingKey)?) throws -> Bool {
        let head = reader.validatedHead(at: offset)
        guard head.major == .simple, head.additionalInfo == 20 || head.additionalInfo == 21 else {
            throw mismatch("bool", at: offset, key: key())
        }
        return head.additionalInfo == 21
    }

    func decodeInteger<I: FixedWidthInteger>(_ type: I.Type, at offset: Int, key: @autoclosure () -> (any CodingKey)?) throws -> I {
        let head = reader.validatedHead(at: offset)
        guard head.major == .unsigned || head.major == .negative else { throw mismatch("integer", at: offset, key: key()) }
        // A negative value is -1 - argument: it fits iff the argument fits the positive range.
        guard head.major == .unsigned || I.isSigned, let value = I(exactly: head.argument) else {
            throw CBORDecodingError.numberOutOfRange(type: "\(I.self)", path: path(appending: key()))
        }
        return head.major == .unsigned ? value : ~value // two's complement: ~n == -1 - n
    }

    func decodeDouble(at offset: Int, key: @autoclosure () -> (any CodingKey)?) throws -> Double {
        let head = reader.validatedHead(at: offset)
        switch (head.major, head.additionalInfo) {
        case (.simple, 25): return HalfFloat.double(fromBits: UInt16(truncatingIfNeeded: head.argument))
        case (.simple, 26): return Double(Float(bitPattern: UInt32(truncatingIfNeeded: head.argument)))
        case (.simple, 27): return Double(bitPattern: head.argument)
        case (.unsigned, _), (.negative, _):
            // Integers are accepted where a float is expected, if exactly representable.
            guard let value = Double(exactly: try decodeInteger(Int64.self, at: offset, key: key())) else {
                throw CBORDecodingError.numberOutOfRange(type: "Double", path: path(appending: key()))
            }
            return value
        default:
            throw mismatch("float", at: offset, key: key())
        }
    }

    /// The content of the byte or text string at `offset`.
    func stringBytes(
        at offset: Int, major: CBORMajorType, key: @autoclosure () -> (any CodingKey)?
    ) throws -> UnsafeBufferPointer<UInt8> {
        let head = reader.validatedHead(at: offset)
        guard head.major == major else { throw mismatch(major == .text ? "text" : "bytes", at: offset, key: key()) }
        return UnsafeBufferPointer(rebasing: reader.bytes[head.end..<(head.end + Int(head.argument))])
    }

    func decodeString(at offset: Int, key: @autoclosure () -> (any CodingKey)?) throws -> String {
        // Validated with the whole payload before decoding began: `decoding` repairs nothing.
        String(decoding: try stringBytes(at: offset, major: .text, key: key()), as: UTF8.self)
    }

    func decodeData(at offset: Int, key: @autoclosure () -> (any CodingKey)?) throws -> Data {
        Data(try stringBytes(at: offset, major: .bytes, key: key()))
    }

    /// Tag 1 around integer or float seconds (`decodeDouble` takes both; whole seconds
    /// within the date range are exact in a Double).
    func decodeDate(at offset: Int, key: @autoclosure () -> (any CodingKey)?) throws -> Date {
        let head = reader.validatedHead(at: offset)
        guard head.major == .tag, head.argument == CBORConstant.epochDateTag else {
            throw mismatch("date (tag 1)", at: offset, key: key())
        }
        guard let milliseconds = CBORDateForm.epochMilliseconds(seconds: try decodeDouble(at: head.end, key: key())) else {
            throw CBORDecodingError.invalidValue(reason: "date out of range", path: path(appending: key()))
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    func decodeURL(at offset: Int, key: @autoclosure () -> (any CodingKey)?) throws -> URL {
        let head = reader.validatedHead(at: offset)
        let textOffset = head.major == .tag && head.argument == CBORConstant.uriTag ? head.end : offset
        let text = try stringBytes(at: textOffset, major: .text, key: key())
        // Logo and photo URLs repeat from one response to the next, and parsing one costs
        // more than decoding a whole team: parsed URLs are reused (URLInternTable).
        guard let url = URLInternTable.shared.url(utf8: text) else {
            throw CBORDecodingError.invalidValue(reason: "not an absolute URL", path: path(appending: key()))
        }
        return url
    }

    // MARK: Any Decodable

    /// Decodes `T` at `offset`; every container's `decode` comes here. The types with a wire
    /// form of their own are read directly, each checking the CBOR type it finds (Foundation's
    /// `init(from:)` of URL, Date and Data would accept other forms: `{"relative": ...}`, a
    /// bare number, an array of integers); everything else goes through `init(from:)` with
    /// `key` pushed onto the path. This runs unspecialised for every nested value, so types
    /// are matched by comparing metatypes and the value is reinterpreted as `T`, which it is:
    /// a `T?` result or an `as? T` cast would look up `Optional<T>` metadata on every call.
    func decode<T: Decodable>(_ type: T.Type, at offset: Int, key: @autoclosure () -> (any CodingKey)?) throws -> T {
        if T.self == String.self { return unsafeBitCast(try decodeString(at: offset, key: key()), to: T.self) }
        if T.self == URL.self { return unsafeBitCast(try decodeURL(at: offset, key: key()), to: T.self) }
        if T.self == Date.self { return unsafeBitCast(try decodeDate(at: offset, key: key()), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try decodeInteger(Int.self, at: offset, key: key()), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try decodeInteger(Int64.self, at: offset, key: key()), to: T.self) }
        if T.self == UInt64.self { return unsafeBitCast(try decodeInteger(UInt64.self, at: offset, key: key()), to: T.self) }
        if T.self == UInt32.self { return unsafeBitCast(try decodeInteger(UInt32.self, at: offset, key: key()), to: T.self) }
        if T.self == UInt8.self { return unsafeBitCast(try decodeInteger(UInt8.self, at: offset, key: key()), to: T.self) }
        if T.self == Int32.self { return unsafeBitCast(try decodeInteger(Int32.self, at: offset, key: key()), to: T.self) }
        if T.self == UInt16.self { return unsafeBitCast(try decodeInteger(UInt16.self, at: offset, key: key()), to: T.self) }
        if T.self == Int16.self { return unsafeBitCast(try decodeInteger(Int16.self, at: offset, key: key()), to: T.self) }
        if T.self == Int8.self { return unsafeBitCast(try decodeInteger(Int8.self, at: offset, key: key()), to: T.self) }
        if T.self == UInt.self { return unsafeBitCast(try decodeInteger(UInt.self, at: offset, key: key()), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try decodeBool(at: offset, key: key()), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try decodeDouble(at: offset, key: key()), to: T.self) }
        if T.self == Float.self { return unsafeBitCast(Float(try decodeDouble(at: offset, key: key())), to: T.self) }
        if T.self == Data.self { return unsafeBitCast(try decodeData(at: offset, key: key()), to: T.self) }

        let entriesMark = state.pointee.mapEntries.count
        let pathMark = state.pointee.path.count
        if let key = key() { state.pointee.path.append(key) }
        defer {
            // removeLast(_:), not removeSubrange: the generic replaceSubrange showed in profiles.
            state.pointee.mapEntries.removeLast(state.pointee.mapEntries.count - entriesMark)
            state.pointee.path.removeLast(state.pointee.path.count - pathMark)
        }
        return try T(from: CBORValueDecoder(cursor: self, offset: offset))
    }
}
