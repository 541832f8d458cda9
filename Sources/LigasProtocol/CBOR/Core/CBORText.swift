import FoundationEssentials

enum CBORText {
    /// A String from text that `CBORReader.skipItem` has already validated (the decoder
    /// validates the whole payload once, before it decodes anything), so no repair
    /// can happen here.
    @inline(__always)
    static func string(validated bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Strict UTF-8 validation (RFC 3629, Unicode table 3-7) of raw bytes, without
    /// building a String: for text that is skipped rather than decoded (unknown map
    /// keys and values). Rejects overlong forms, surrogates and scalars above U+10FFFF,
    /// exactly as `string(from:)` does.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if isASCII(bytes) { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF  // allowed range of the second byte
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0           // no overlong 3-byte forms
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F          // no surrogates
            case 0xF0: length = 4; low = 0x90           // no overlong 4-byte forms
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F          // nothing above U+10FFFF
            default: return false                       // continuation byte, C0, C1, F5...FF
            }
            guard count - index >= length else { return false }
            let second = bytes[index + 1]
            guard second >= low, second <= high else { return false }
            var next = index + 2
            while next < index + length {
                guard bytes[next] & 0xC0 == 0x80 else { return false }
                next += 1
            }
            index += length
        }
        return true
    }

    /// Checks eight bytes at a time for a set high bit. The last partial word is read
    /// as an overlapping word (or two overlapping half words for short text) rather
    /// than byte by byte: most strings end in one, and every skipped string is checked.
    @inline(__always)
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        let count = raw.count
        var accumulated: UInt64 = 0
        if count >= 8 {
            var index = 0
            while index + 8 <= count {
                accumulated |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            accumulated |= raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            accumulated = UInt64(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
                | raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
        } else {
            for byte in raw { accumulated |= UInt64(byte) }
        }
        return accumulated & 0x8080_8080_8080_8080 == 0
    }
}
