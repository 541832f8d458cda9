/// IEEE 754 binary16 conversions done by hand, because `Float16` is not available on
/// every platform the client may be built for.
enum HalfFloat {
    /// The binary16 bit pattern of `value` if it is exactly representable, else nil.
    /// NaN is handled by the caller (it has a canonical encoding).
    static func exactBits(of value: Float) -> UInt16? {
        let bits = value.bitPattern
        let sign = UInt16(truncatingIfNeeded: bits >> 16) & 0x8000
        let exponent = Int((bits >> 23) & 0xFF)
        let mantissa = bits & 0x7F_FFFF

        if exponent == 0xFF { // infinity (NaN excluded by the caller)
            return mantissa == 0 ? sign | 0x7C00 : nil
        }
        if exponent == 0 { // zero or a float32 subnormal (always too small for half)
            return mantissa == 0 ? sign : nil
        }
        let unbiased = exponent - 127
        if unbiased >= -14 && unbiased <= 15 { // half normal range
            guard mantissa & 0x1FFF == 0 else { return nil }
            return sign | UInt16(unbiased + 15) << 10 | UInt16(truncatingIfNeeded: mantissa >> 13)
        }
        if unbiased >= -24 && unbiased < -14 { // half subnormal range
            let significand = mantissa | 0x80_0000
            let shift = UInt32(-unbiased - 1)
            guard significand & ((1 << shift) - 1) == 0 else { return nil }
            return sign | UInt16(truncatingIfNeeded: significand >> shift)
        }
        return nil
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
