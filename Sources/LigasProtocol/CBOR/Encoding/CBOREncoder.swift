import FoundationEssentials

/// Encodes `Encodable` values as deterministic CBOR (RFC 8949 §4.2.1): shortest
/// heads, definite lengths, map keys sorted bytewise by their encoding, floats in the
/// shortest exact width. Structs become maps with text keys; `Data` is a byte
/// string; `nil` is null (synthesized Codable omits absent optionals instead); a URL is
/// its absolute string and a `Date` is `CBORDateForm`.
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
        var state = CBOREncodingState()
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

/// Mutable state of one `encode` call, reached through a pointer by the encoder and
/// containers (see `CBORDecodingState` for why).
struct CBOREncodingState {
    var out = CBOROutput()
    /// Containers written to in one forward pass, innermost last.
    var open: [CBOROpenContainer] = []
    /// Where each entry of the open maps starts, and where its value starts (so the key is
    /// the bytes between): to check and restore key order when a map closes.
    var entryMarks: [(entryStart: Int, valueStart: Int)] = []
    /// Reused by every map that has to be put in key order.
    var scratch: [UInt8] = []
    /// Coding path of the value being encoded; every container's `codingPath` (see
    /// `CBORDecodingState.path`).
    var path: [any CodingKey] = []
    /// Misuse reported by non-throwing Encoder APIs, thrown when encoding ends.
    var pendingError: (any Error)?

    init() {
        open.reserveCapacity(8)
        entryMarks.reserveCapacity(32)
    }
}

/// A container whose head is a one-byte placeholder at `headOffset` (unique in one encode
/// call, so it also identifies the container); the real count is patched in when it closes.
struct CBOROpenContainer {
    let isMap: Bool
    let headOffset: Int
    /// Where this map's entries start in `entryMarks`.
    let marksStart: Int
    var itemCount = 0
}
