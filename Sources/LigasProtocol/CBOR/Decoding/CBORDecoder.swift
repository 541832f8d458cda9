import FoundationEssentials

/// Decodes `Decodable` values from CBOR (RFC 8949). Untrusted input is safe: the whole item
/// is validated first (bounds, lengths, nesting depth, no indefinite lengths, no trailing
/// bytes), and every failure is a `CBORDecodingError`, shape errors with the coding path,
/// e.g. `value[3].name`. Unknown map keys are ignored so newer peers can add fields.
public struct CBORDecoder: Sendable {
    /// Cap on nesting of arrays, maps and tags; protects the stack. The top-level item is
    /// level 1: 64 levels pass, an array, map or tag at level 65 is `depthLimitExceeded`
    /// (PROTOCOL.md §3.4).
    public static let maxDepth = 64

    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBufferPointer { try decode(type, from: $0) }
    }

    /// Decodes from borrowed memory; nothing refers to `bytes` after this returns.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>) throws -> T {
        let reader = CBORReader(bytes: bytes, maxDepth: Self.maxDepth)
        var state = CBORDecodingState(reader: reader)
        return try withUnsafeMutablePointer(to: &state) { pointer in
            let cursor = CBORCursor(state: pointer)
            let end = try reader.skipItem(at: 0)
            guard end == bytes.count else { throw CBORDecodingError.trailingBytes(offset: end) }
            do {
                return try cursor.decode(T.self, at: 0, key: nil)
            } catch let error as DecodingError {
                // Thrown by a type's own init(from:), e.g. an unknown enum raw value.
                throw CBORDecodingError(error)
            }
        }
    }
}

/// One indexed entry of a map being decoded: where its text key's bytes are (its value
/// follows them). Entries of all open maps share one stack: no allocation per map.
struct CBORMapEntry {
    let keyStart: Int
    let keyCount: Int
    var valueOffset: Int { keyStart + keyCount }
}

/// State shared by every decoder and container of one `decode` call, on the stack of
/// `decode` and reached through a pointer: small per-value decoders, no reference counting.
struct CBORDecodingState {
    let reader: CBORReader
    /// Index of the maps currently open, innermost last.
    var mapEntries: [CBORMapEntry] = []
    /// Coding path of the value being decoded, for error messages. It is every container's
    /// `codingPath` too: nested values push and pop their keys around their own decoding.
    var path: [any CodingKey] = []

    init(reader: CBORReader) {
        self.reader = reader
        mapEntries.reserveCapacity(64)
        path.reserveCapacity(16)
    }
}

extension CBORDecodingError {
    /// Maps the standard library's error (from synthesized or custom `init(from:)`) to
    /// the named error with a rendered path.
    init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self = .keyNotFound(path: CBORCodingPath.render(context.codingPath + [key]))
        case .typeMismatch(let type, let context):
            self = .typeMismatch(expected: "\(type)", path: CBORCodingPath.render(context.codingPath))
        case .valueNotFound(let type, let context):
            self = .valueNotFound(expected: "\(type)", path: CBORCodingPath.render(context.codingPath))
        case .dataCorrupted(let context):
            self = .invalidValue(reason: context.debugDescription, path: CBORCodingPath.render(context.codingPath))
        @unknown default:
            self = .invalidValue(reason: "\(error)", path: "")
        }
    }
}
