import CSystemd
import Glibc
import Logging

/// The fields of one journal entry, packed as `NAME=value` back to back in a single byte buffer,
/// then handed to `sd_journal_sendv` as one iovec per field.
///
/// sendv takes lengths, so values may hold newlines or any bytes (libsystemd switches such a field
/// to journald's binary-safe encoding by itself). Two buffers are allocated per entry, the bytes and
/// the field ends; the iovecs live on the stack.
struct JournalEntry {
    private var bytes: [UInt8] = []
    private var fieldEnds: [Int] = []

    init(estimatedSize: Int) {
        bytes.reserveCapacity(estimatedSize)
        fieldEnds.reserveCapacity(16)
    }

    mutating func append(_ name: StaticString, _ value: String) {
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "="))
        bytes.append(contentsOf: value.utf8)
        fieldEnds.append(bytes.count)
    }

    mutating func append(_ name: StaticString, _ value: some BinaryInteger) {
        append(name, String(value))
    }

    /// A metadata entry under its sanitised name (see `JournalFieldName`); dropped if no name is left.
    mutating func appendMetadata(key: String, value: Logger.MetadataValue) {
        guard JournalFieldName.append(metadataKey: key, to: &bytes) else { return }
        bytes.append(UInt8(ascii: "="))
        MetadataText.append(value, to: &bytes)
        fieldEnds.append(bytes.count)
    }

    mutating func appendMetadata(key: String, text: String) {
        appendMetadata(key: key, value: .string(text))
    }

    /// Sends the entry. Returns 0 or a negative errno, like libsystemd. Thread-safe: libsystemd opens
    /// its socket once and every call is a single sendmsg(2); no lock of ours is held meanwhile.
    func send() -> Int32 {
        let count = fieldEnds.count
        return bytes.withUnsafeBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -EINVAL }
            return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
                var start = 0
                for (index, end) in fieldEnds.enumerated() {
                    vectors[index] = iovec(iov_base: UnsafeMutableRawPointer(mutating: base + start), iov_len: end - start)
                    start = end
                }
                return sd_journal_sendv(vectors.baseAddress, Int32(count))
            }
        }
    }
}
