import Foundation

/// Encodes `Encodable` values as deterministic CBOR (RFC 8949 §4.2.1): shortest
/// heads, definite lengths, map keys sorted bytewise by their encoding, floats in the
/// shortest exact width. Structs become maps with text keys; `Data` is a byte
/// string; `nil` is null (synthesized Codable omits absent optionals instead);
/// `Date` and `URL` use the forms in `CBORWireForms.swift`.
public struct CBOREncoder: Sendable {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var out: [UInt8] = []
        try encode(value, into: &out)
        return out
    }

    /// Appends the encoding of `value` to `out` (so frames can be built in one buffer).
    /// On error `out` is left as it was.
    public func encode<T: Encodable>(_ value: T, into out: inout [UInt8]) throws {
        var state = CBOREncodingState(out: CBOROutput())
        defer { state.out.deallocate() }
        try withUnsafeMutablePointer(to: &state) { pointer in
            let cursor = CBOREncodingCursor(state: pointer)
            try cursor.encode(value, key: nil)
            try cursor.close(downTo: 0)
            if let error = pointer.pointee.pendingError { throw error }
        }
        out.append(contentsOf: state.out.bytes)
    }
}
