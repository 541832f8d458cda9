import Foundation

enum CBORText {
    /// Strict UTF-8 decoding. `String(decoding:)` is the fast, specialized path but
    /// repairs invalid input with U+FFFD, so unless the input is plain ASCII (which
    /// cannot be invalid) the result's bytes are compared with the input: they are
    /// identical exactly when the input was valid. (`String(validating:)` is generic
    /// and instantiated metadata on every call, which dominated decoding time.)
    static func string(from bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var string = String(decoding: bytes, as: UTF8.self)
        if isASCII(bytes) { return string }
        let identical = string.withUTF8 { decoded in
            guard decoded.count == bytes.count else { return false }
            guard let lhs = decoded.baseAddress, let rhs = bytes.baseAddress else { return true }
            return memcmp(lhs, rhs, bytes.count) == 0
        }
        return identical ? string : nil
    }

    /// Checks eight bytes at a time for a set high bit.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        var accumulated: UInt64 = 0
        while index + 8 <= raw.count {
            accumulated |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < raw.count {
            accumulated |= UInt64(raw[index])
            index += 1
        }
        return accumulated & 0x8080_8080_8080_8080 == 0
    }
}
