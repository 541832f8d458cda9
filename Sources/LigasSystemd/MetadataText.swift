import Logging

/// Renders a metadata value as the text stored in a journal field or printed on a stderr line.
/// Strings stay as they are; dictionaries are sorted by key so the same value always reads the same.
enum MetadataText {
    static func render(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let string): return string
        case .stringConvertible(let convertible): return convertible.description
        case .array(let values): return "[" + values.map(render).joined(separator: ", ") + "]"
        case .dictionary(let dictionary) where dictionary.isEmpty: return "[:]"
        case .dictionary(let dictionary):
            let entries = dictionary.sorted { $0.key < $1.key }.map { "\($0.key): \(render($0.value))" }
            return "[" + entries.joined(separator: ", ") + "]"
        }
    }

    static func append(_ value: Logger.MetadataValue, to bytes: inout [UInt8]) {
        switch value {
        case .string(let string): bytes.append(contentsOf: string.utf8)
        default: bytes.append(contentsOf: render(value).utf8)
        }
    }
}
