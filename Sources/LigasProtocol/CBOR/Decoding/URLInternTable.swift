import FoundationEssentials
import Glibc
import Synchronization

/// Process-wide, bounded memo of the wire's URLs (`absoluteURL`) by their UTF-8 bytes: parsing
/// a URL is the most expensive step of decoding a response, and the same logo and photo URLs
/// arrive again and again. A hit costs a hash, a lookup and a memcmp, without building a String; a
/// full table is simply emptied (no LRU bookkeeping), so memory stays bounded.
final class URLInternTable: Sendable {
    static let shared = URLInternTable()
    private static let capacity = 4096

    /// By hash of the bytes. The bytes are compared on every hit, so a URL whose hash
    /// collides with a remembered one is parsed (and then remembered instead).
    private let entries = Mutex<[Int: (bytes: [UInt8], url: URL)]>([:])

    /// A URL as the wire has it (PROTOCOL.md §3.3): absolute, a scheme (a letter first) then
    /// ':', in RFC 3986's characters; nil for any other text.
    static func absoluteURL(_ text: String) -> URL? {
        guard hasOnlyURICharacters(text.utf8), let url = URL(string: text), url.scheme?.first?.isLetter == true else { return nil }
        return url
    }

    /// Only what RFC 3986 allows in a URI (its unreserved and reserved characters), and `%` only
    /// before two hex digits. Foundation's parser would percent-encode a space or a stray `%`
    /// and take the text: a URL the peer could not have meant as written.
    static func hasOnlyURICharacters(_ utf8: String.UTF8View) -> Bool {
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(), isHexDigit(high), isHexDigit(low) else { return false }
            } else if !(byte < 128 && uriCharacters[Int(byte)]) {
                return false
            }
        }
        return true
    }

    private static let uriCharacters: [Bool] = (0..<128).map { byte in
        let scalar = Unicode.Scalar(UInt8(byte))
        return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "-._~:/?#[]@!$&'()*+,;=".unicodeScalars.contains(scalar)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// `absoluteURL` of the text `bytes`, parsed (and remembered) on a miss.
    func url(utf8 bytes: UnsafeBufferPointer<UInt8>) -> URL? {
        let hash = Self.hash(bytes)
        if let entry = entries.withLock({ $0[hash] }), entry.bytes.count == bytes.count,
           memcmp(entry.bytes, bytes.baseAddress!, bytes.count) == 0 {
            return entry.url
        }
        guard let url = Self.absoluteURL(String(decoding: bytes, as: UTF8.self)) else { return nil }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[hash] = (Array(bytes), url)
        }
        return url
    }

    /// FNV-1a over 8-byte words: a tenth of `Hasher`'s SipHash, which showed in profiles. No
    /// seed is needed: the bytes are compared on every hit, so a collision, even a crafted one,
    /// costs a parse and nothing else (and `Dictionary` hashes its `Int` keys with a seed).
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(raw.count)
        var index = 0
        while index + 8 <= raw.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* prime
            index += 8
        }
        while index < raw.count {
            hash = (hash ^ UInt64(raw[index])) &* prime
            index += 1
        }
        return Int(truncatingIfNeeded: hash)
    }
}
