import Foundation

/// Low-level CBOR writers that append straight into a byte buffer.
///
/// Everything here produces the *preferred* (shortest) serialization required by
/// RFC 8949 §4.2.1 core deterministic encoding.
extension Array where Element == UInt8 {
    /// Appends a head (major type + argument) in its shortest form.
    @inline(__always)
    mutating func appendCBORHead(_ major: CBORMajorType, _ argument: UInt64) {
        let high = major.rawValue << 5
        if argument < 24 {
            append(high | UInt8(truncatingIfNeeded: argument))
        } else if argument <= 0xFF {
            append(high | 24)
            append(UInt8(truncatingIfNeeded: argument))
        } else if argument <= 0xFFFF {
            append(high | 25)
            appendBigEndian(UInt16(truncatingIfNeeded: argument))
        } else if argument <= 0xFFFF_FFFF {
            append(high | 26)
            appendBigEndian(UInt32(truncatingIfNeeded: argument))
        } else {
            append(high | 27)
            appendBigEndian(argument)
        }
    }

    @inline(__always)
    mutating func appendBigEndian<I: FixedWidthInteger>(_ value: I) {
        var bigEndian = value.bigEndian
        Swift.withUnsafeBytes(of: &bigEndian) { append(contentsOf: $0) }
    }

    mutating func appendCBORUnsigned(_ value: UInt64) {
        appendCBORHead(.unsigned, value)
    }

    mutating func appendCBORSigned(_ value: Int64) {
        if value >= 0 {
            appendCBORHead(.unsigned, UInt64(value))
        } else {
            // -1 - n without overflow: ~value == -value - 1 and is never negative here.
            appendCBORHead(.negative, UInt64(~value))
        }
    }

    mutating func appendCBORBool(_ value: Bool) {
        append(value ? CBORConstant.trueByte : CBORConstant.falseByte)
    }

    mutating func appendCBORNull() {
        append(CBORConstant.nullByte)
    }

    mutating func appendCBORText(_ string: String) {
        let utf8 = string.utf8
        appendCBORHead(.text, UInt64(utf8.count))
        if utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil {
            append(contentsOf: utf8)
        }
    }

    mutating func appendCBORBytes<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        appendCBORHead(.bytes, UInt64(bytes.count))
        append(contentsOf: bytes)
    }

    mutating func appendCBORTag(_ tag: UInt64) {
        appendCBORHead(.tag, tag)
    }

    /// Writes a float in the shortest of half/single/double that keeps the exact value
    /// (RFC 8949 §4.2.1); NaN always becomes the canonical half NaN 0xF97E00.
    mutating func appendCBORDouble(_ value: Double) {
        if value.isNaN {
            append(CBORConstant.half)
            appendBigEndian(CBORConstant.nanHalfBits)
            return
        }
        let single = Float(value)
        guard Double(single) == value else {
            append(CBORConstant.double)
            appendBigEndian(value.bitPattern)
            return
        }
        if let halfBits = HalfFloat.exactBits(of: single) {
            append(CBORConstant.half)
            appendBigEndian(halfBits)
        } else {
            append(CBORConstant.single)
            appendBigEndian(single.bitPattern)
        }
    }
}
