import Foundation

/// Field readers for the direct decoders. Each takes the offset found for a key (nil
/// if the key was absent) and throws exactly what the Codable path would throw, so
/// both paths agree on errors as well as values.
extension CBORCursor {
    @inline(__always)
    func required(_ offset: Int?, _ key: @autoclosure () -> any CodingKey) throws -> Int {
        guard let offset else { throw missing(key()) }
        return offset
    }

    /// nil when the key is absent or its value is null (like `decodeIfPresent`).
    @inline(__always)
    func present(_ offset: Int?) -> Int? {
        guard let offset, !decodeNil(at: offset) else { return nil }
        return offset
    }

    func string(_ offset: Int?, _ key: @autoclosure () -> any CodingKey) throws -> String {
        try decodeString(at: required(offset, key()), key: key())
    }

    func optionalString(_ offset: Int?, _ key: @autoclosure () -> any CodingKey) throws -> String? {
        guard let offset = present(offset) else { return nil }
        return try decodeString(at: offset, key: key())
    }

    func url(_ offset: Int?, _ key: @autoclosure () -> any CodingKey) throws -> URL {
        try decodeURL(at: required(offset, key()), key: key())
    }

    func optionalURL(_ offset: Int?, _ key: @autoclosure () -> any CodingKey) throws -> URL? {
        guard let offset = present(offset) else { return nil }
        return try decodeURL(at: offset, key: key())
    }

    func date(_ offset: Int?, _ key: @autoclosure () -> any CodingKey) throws -> Date {
        try decodeDate(at: required(offset, key()), key: key())
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type, _ offset: Int?, _ key: @autoclosure () -> any CodingKey) throws -> I {
        try decodeInteger(I.self, at: required(offset, key()), key: key())
    }

    func optionalInteger<I: FixedWidthInteger>(_ type: I.Type, _ offset: Int?, _ key: @autoclosure () -> any CodingKey) throws -> I? {
        guard let offset = present(offset) else { return nil }
        return try decodeInteger(I.self, at: offset, key: key())
    }

    /// A text enumeration, with the same message as a synthesized `RawRepresentable`.
    func textEnum<E: RawRepresentable>(_ type: E.Type, at offset: Int, _ key: @autoclosure () -> any CodingKey) throws -> E
    where E.RawValue == String {
        let raw = try decodeString(at: offset, key: key())
        guard let value = E(rawValue: raw) else {
            throw CBORDecodingError.invalidValue(
                reason: "Cannot initialize \(E.self) from invalid String value \(raw)", path: path(appending: key())
            )
        }
        return value
    }

    func textEnum<E: RawRepresentable>(_ type: E.Type, _ offset: Int?, _ key: @autoclosure () -> any CodingKey) throws -> E
    where E.RawValue == String {
        try textEnum(E.self, at: required(offset, key()), key())
    }

    func nested<T: CBORDirectCodable>(_ type: T.Type, _ offset: Int?, _ key: any CodingKey) throws -> T {
        try read(T.self, at: required(offset, key), key: key)
    }
}

/// Remembers the first value offset seen for a key; later duplicates are ignored,
/// as the Codable path's lookup also takes the first occurrence.
@inline(__always)
func keepFirst(_ slot: inout Int?, _ offset: Int) {
    if slot == nil { slot = offset }
}
