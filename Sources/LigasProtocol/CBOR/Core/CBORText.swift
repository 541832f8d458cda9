import FoundationEssentials

enum CBORText {
    /// Strict UTF-8 (RFC 3629: no overlong forms, surrogates or scalars above U+10FFFF),
    /// without building a String: all text is checked, skipped text too. Most text is ASCII;
    /// the rest goes through the standard library's UTF-8 parser.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if isASCII(bytes) { return true }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Checks eight bytes at a time for a set high bit; the last word overlaps the one before
    /// instead of a byte-by-byte tail (most strings end in one, and every string is checked).
    @inline(__always)
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        guard raw.count >= 8 else { return raw.reduce(0, |) < 0x80 }
        var accumulated = raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)
        for index in stride(from: 0, to: raw.count - 8, by: 8) {
            accumulated |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        }
        return accumulated & 0x8080_8080_8080_8080 == 0
    }
}
