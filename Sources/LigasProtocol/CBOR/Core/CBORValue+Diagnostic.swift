/// CBOR diagnostic notation (RFC 8949 §8), used by the golden vectors and error
/// messages so a human can read a payload without a decoder.
extension CBORValue: CustomStringConvertible {
    public var description: String { diagnostic }

    public var diagnostic: String {
        switch self {
        case .unsigned(let value):
            return String(value)
        case .negative(let value):
            return value == .max ? "-18446744073709551616" : "-" + String(value + 1)
        case .bytes(let bytes):
            return "h'" + bytes.map { hexByte($0) }.joined() + "'"
        case .text(let text):
            return quoted(text)
        case .array(let items):
            return "[" + items.map(\.diagnostic).joined(separator: ", ") + "]"
        case .map(let pairs):
            return "{" + pairs.map { "\($0.key.diagnostic): \($0.value.diagnostic)" }.joined(separator: ", ") + "}"
        case .tagged(let tag, let content):
            return "\(tag)(\(content.diagnostic))"
        case .bool(let value):
            return value ? "true" : "false"
        case .null:
            return "null"
        case .undefined:
            return "undefined"
        case .simple(let value):
            return "simple(\(value))"
        case .float(let value):
            if value.isNaN { return "NaN" }
            if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
            return "\(value)"
        }
    }

    private func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    private func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
