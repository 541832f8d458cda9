/// Turns swift-log metadata keys into journal field names.
///
/// journald keeps only fields named `[A-Z0-9_]`, at most 64 bytes, not starting with a digit, and
/// treats a leading `_` as trusted (set by journald itself; dropped when a client sends it). Our own
/// fields all carry the `LIGAS_` prefix, so a key can never clash with `MESSAGE`, `PRIORITY` & co. and
/// never starts with a digit or `_`. The one exception is `MESSAGE_ID`, which must be the journal's
/// own field for `journalctl -x` and the message catalog to work.
public enum JournalFieldName {
    public static let prefix = "LIGAS_"
    public static let messageID = "MESSAGE_ID"
    public static let maximumLength = 64

    /// The field name for a metadata key: `method` → `LIGAS_METHOD`, `request-id` → `LIGAS_REQUEST_ID`,
    /// `LIGAS_METHOD` stays. Every other Unicode scalar becomes one `_`. `nil` when no letter or digit
    /// is left after the prefix (`""`, `"--"`, `"日本"`): such a field would say nothing and collide.
    public static func forMetadataKey(_ key: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(key.utf8.count, maximumLength) + prefix.utf8.count)
        guard append(metadataKey: key, to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the field name for `key` to `bytes` (no intermediate String: this runs for every
    /// metadata entry of every log call). Returns false, leaving `bytes` untouched, when dropped.
    static func append(metadataKey key: String, to bytes: inout [UInt8]) -> Bool {
        if key == messageID {
            bytes.append(contentsOf: messageID.utf8)
            return true
        }
        let start = bytes.count
        bytes.append(contentsOf: prefix.utf8)
        let bodyStart = bytes.count
        for scalar in key.unicodeScalars {
            if bytes.count - bodyStart == maximumLength { break }
            bytes.append(fieldByte(for: scalar))
        }
        // A key that already follows the scheme ("LIGAS_METHOD", "ligas-method") is not prefixed twice,
        // so sanitising is idempotent.
        if bytes[bodyStart...].starts(with: prefix.utf8) {
            bytes.removeSubrange(start..<bodyStart)
        } else if bytes.count - start > maximumLength {
            bytes.removeLast(bytes.count - start - maximumLength)
        }
        let afterPrefix = start + prefix.utf8.count
        guard afterPrefix < bytes.count, bytes[afterPrefix...].contains(where: isLetterOrDigit) else {
            bytes.removeSubrange(start...)
            return false
        }
        return true
    }

    private static func fieldByte(for scalar: Unicode.Scalar) -> UInt8 {
        switch scalar.value {
        case 0x41...0x5A, 0x30...0x39: UInt8(scalar.value)  // A-Z, 0-9
        case 0x61...0x7A: UInt8(scalar.value - 0x20)  // a-z, uppercased
        default: UInt8(ascii: "_")
        }
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte)
    }
}
