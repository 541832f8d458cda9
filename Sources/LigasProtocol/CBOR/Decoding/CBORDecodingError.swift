/// Every way CBOR decoding can fail. Structural errors carry the byte offset; errors
/// about the shape of the data carry the coding path, e.g. `value[3].name`.
public enum CBORDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended in the middle of a data item.
    case truncated(offset: Int)
    /// A byte string, text string, array or map announces more than the remaining input.
    case lengthExceedsInput(offset: Int)
    /// Not well-formed or not allowed here: reserved additional info, indefinite length,
    /// invalid simple value, invalid UTF-8.
    case malformed(reason: String, offset: Int)
    /// Arrays, maps and tags are nested deeper than the decoder's `maxDepth`.
    case depthLimitExceeded(limit: Int, offset: Int)
    /// Bytes follow the single top-level data item.
    case trailingBytes(offset: Int)
    /// A required map key is absent.
    case keyNotFound(path: String)
    /// A value has the wrong CBOR type.
    case typeMismatch(expected: String, path: String)
    /// `null` (or nothing) where a value is required.
    case valueNotFound(expected: String, path: String)
    /// An integer does not fit the target type.
    case numberOutOfRange(type: String, path: String)
    /// Well-typed but unacceptable, e.g. an unknown enum text or an unparsable URL.
    case invalidValue(reason: String, path: String)

    public var description: String {
        switch self {
        case .truncated(let offset): "input truncated at byte \(offset)"
        case .lengthExceedsInput(let offset): "length at byte \(offset) exceeds the remaining input"
        case .malformed(let reason, let offset): "malformed CBOR at byte \(offset): \(reason)"
        case .depthLimitExceeded(let limit, let offset): "nesting deeper than \(limit) at byte \(offset)"
        case .trailingBytes(let offset): "unexpected bytes after the data item at byte \(offset)"
        case .keyNotFound(let path): "missing required key \(path)"
        case .typeMismatch(let expected, let path): "expected \(expected) at \(path.isEmpty ? "top level" : path)"
        case .valueNotFound(let expected, let path): "expected \(expected) but found null at \(path.isEmpty ? "top level" : path)"
        case .numberOutOfRange(let type, let path): "number at \(path.isEmpty ? "top level" : path) does not fit \(type)"
        case .invalidValue(let reason, let path): "invalid value at \(path.isEmpty ? "top level" : path): \(reason)"
        }
    }
}

/// The codec's own coding keys: an array position (rendered `[n]` in error paths), or a
/// map key that is not one of a type's `CodingKeys`.
enum CBORKey: CodingKey {
    case index(Int)
    case name(String)

    var stringValue: String {
        switch self {
        case .index(let index): "Index \(index)"
        case .name(let name): name
        }
    }

    var intValue: Int? { if case .index(let index) = self { index } else { nil } }
    init(stringValue: String) { self = .name(stringValue) }
    init(intValue: Int) { self = .index(intValue) }
}

enum CBORCodingPath {
    /// Renders a coding path the way errors show it: `value[3].name`.
    static func render(_ path: some Sequence<any CodingKey>) -> String {
        var result = ""
        for key in path {
            if case .index(let index)? = key as? CBORKey {
                result += "[\(index)]"
            } else {
                if !result.isEmpty { result += "." }
                result += key.stringValue
            }
        }
        return result
    }
}
