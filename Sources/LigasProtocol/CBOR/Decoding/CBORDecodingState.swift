import Foundation

/// One indexed entry of a map being decoded: where its text key's bytes are (its value
/// follows them). Entries of all open maps live in one shared stack to avoid an
/// allocation per map.
struct CBORMapEntry {
    let keyStart: Int
    let keyCount: Int
    var valueOffset: Int { keyStart + keyCount }
}

/// Mutable state shared by every decoder and container of one `decode` call. It lives
/// on the stack of `CBORDecoder.decode` and is reached through a pointer, which keeps
/// the per-value decoder structs small (no reference counting, no exclusivity checks).
struct CBORDecodingState {
    let reader: CBORReader
    let internsURLs: Bool
    /// Index of the maps currently open, innermost last.
    var mapEntries: [CBORMapEntry] = []
    /// Coding path of the value being decoded, for error messages. It is every container's
    /// `codingPath` too: nested values push and pop their keys around their own decoding.
    var path: [any CodingKey] = []

    init(reader: CBORReader, internsURLs: Bool) {
        self.reader = reader
        self.internsURLs = internsURLs
        mapEntries.reserveCapacity(64)
        path.reserveCapacity(16)
    }
}
