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

/// The coding key used for array positions, rendered as `[n]` in error paths.
struct CBORIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { return nil }
}

/// A map key that is not one of a type's `CodingKeys`, e.g. for `allKeys` of foreign maps.
struct CBORStringKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

enum CBORCodingPath {
    /// Renders a coding path the way errors show it: `value[3].name`.
    static func render(_ path: some Sequence<any CodingKey>) -> String {
        var result = ""
        for key in path {
            if key is CBORIndexKey, let index = key.intValue {
                result += "[\(index)]"
            } else {
                if !result.isEmpty { result += "." }
                result += key.stringValue
            }
        }
        return result
    }
}
