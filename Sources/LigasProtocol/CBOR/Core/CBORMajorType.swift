/// The eight CBOR major types (RFC 8949 §3.1), numbered 0...7 in declaration order: the
/// top three bits of every head byte.
enum CBORMajorType: UInt8 {
    case unsigned, negative, bytes, text, array, map, tag, simple
}

/// Fixed head bytes of major type 7 and the tags this protocol uses.
enum CBORConstant {
    static let falseByte: UInt8 = 0xF4
    static let trueByte: UInt8 = 0xF5
    static let nullByte: UInt8 = 0xF6
    static let undefinedByte: UInt8 = 0xF7
    /// Canonical quiet NaN in half precision (RFC 8949 §4.2.2).
    static let nanHalfBits: UInt16 = 0x7E00
    /// Tag 1: epoch-based date/time (RFC 8949 §3.4.2).
    static let epochDateTag: UInt64 = 1
    /// Tag 32: URI (RFC 8949 §3.4.5.3); accepted on input, never written.
    static let uriTag: UInt64 = 32
}
