/// IEEE 754 binary16 conversions done by hand, because `Float16` is not available on
/// every platform the client may be built for.
enum HalfFloat {
    /// The binary16 bit pattern of `value` if it is exactly representable, else nil (NaN is
    /// the caller's). The positive patterns 0x0000 (zero) ... 0x7C00 (infinity) are ordered
    /// like their values, so a binary search finds the one equal to the magnitude, if any.
    static func exactBits(of value: Float) -> UInt16? {
        let magnitude = Double(value.magnitude)
        var low: UInt16 = 0
        var high: UInt16 = 0x7C00
        while low < high {
            let middle = (low + high) / 2
            if double(fromBits: middle) < magnitude { low = middle + 1 } else { high = middle }
        }
        guard double(fromBits: low) == magnitude else { return nil }
        return value.sign == .minus ? low | 0x8000 : low
    }

    /// Decodes a binary16 bit pattern (RFC 8949 Appendix D).
    static func double(fromBits bits: UInt16) -> Double {
        let exponent = Int((bits >> 10) & 0x1F)
        let mantissa = Double(bits & 0x3FF)
        let magnitude: Double
        switch exponent {
        case 0: magnitude = Double(sign: .plus, exponent: -24, significand: mantissa)
        case 31: magnitude = mantissa == 0 ? .infinity : .nan
        default: magnitude = Double(sign: .plus, exponent: exponent - 25, significand: mantissa + 1024)
        }
        return bits & 0x8000 == 0 ? magnitude : -magnitude
    }
}
