import Foundation

/// Process-wide, bounded memo of `URL(string:)` keyed by the URL's UTF-8 bytes.
/// Parsing a URL is the most expensive step of decoding a response, and the same
/// logo/photo URLs arrive again and again; a hit costs a word-wise hash and one
/// memcmp, without even building a String. When the table gets half full it is
/// simply emptied (no LRU bookkeeping), so memory stays bounded.
final class URLInternTable: @unchecked Sendable {
    static let shared = URLInternTable(slotCount: 8192)

    private struct Entry {
        let hash: UInt64
        let bytes: [UInt8]
        let url: URL
    }

    private let lock = NSLock()
    private var slots: [Entry?]
    private var occupied = 0
    private let mask: Int

    /// `slotCount` must be a power of two.
    init(slotCount: Int) {
        slots = Array(repeating: nil, count: slotCount)
        mask = slotCount - 1
    }

    /// The URL for `bytes`, parsing (and remembering) it with `parse` on a miss.
    func url(utf8 bytes: UnsafeBufferPointer<UInt8>, parse: () -> URL?) -> URL? {
        let hash = Self.hash(bytes)
        lock.lock()
        var index = Int(truncatingIfNeeded: hash) & mask
        while let entry = slots[index] {
            if entry.hash == hash, entry.bytes.count == bytes.count,
               entry.bytes.withUnsafeBufferPointer({ Self.equal($0, bytes) }) {
                lock.unlock()
                return entry.url
            }
            index = (index + 1) & mask
        }
        lock.unlock()

        guard let url = parse() else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if occupied >= slots.count / 2 {
            for index in slots.indices { slots[index] = nil }
            occupied = 0
        }
        index = Int(truncatingIfNeeded: hash) & mask
        while slots[index] != nil { index = (index + 1) & mask }
        slots[index] = Entry(hash: hash, bytes: Array(bytes), url: url)
        occupied += 1
        return url
    }

    private static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard lhs.count > 0, let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        return memcmp(left, right, lhs.count) == 0
    }

    /// A fast non-cryptographic hash over 8-byte words (collisions only cost a memcmp).
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            index += 8
        }
        while index < bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* 0x0100_0000_01B3
            index += 1
        }
        return hash ^ (hash >> 29)
    }
}
