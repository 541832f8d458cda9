import Logging

/// One log entry as one line of text: `<level> <message> KEY=value KEY="quoted value" …`.
///
/// Field names are the journal's (`LIGAS_METHOD`, `MESSAGE_ID`), so a line reads the same as the
/// entry in `journalctl -o verbose`, sorted by name. A line never contains a newline except the one
/// that ends it: control characters are escaped in the message and in values, and values that are
/// empty or hold spaces, quotes, backslashes or control characters are quoted.
enum LogLine {
    static func bytes(
        level: Logger.Level,
        message: String,
        metadata: EffectiveMetadata,
        error: (any Error)?,
        codeLocation: (file: String, line: UInt)?
    ) -> [UInt8] {
        var fields: [(name: String, value: String)] = []
        metadata.forEach { key, value in
            guard let name = JournalFieldName.forMetadataKey(key) else { return }
            fields.append((name, MetadataText.render(value)))
        }
        if let error, !metadata.contains(EffectiveMetadata.errorKey),
            let name = JournalFieldName.forMetadataKey(EffectiveMetadata.errorKey)
        {
            fields.append((name, String(describing: error)))
        }
        fields.sort { $0.name < $1.name || ($0.name == $1.name && $0.value < $1.value) }
        if let codeLocation {
            fields.append(("CODE_FILE", codeLocation.file))
            fields.append(("CODE_LINE", String(codeLocation.line)))
        }

        var line: [UInt8] = []
        line.reserveCapacity(64 + message.utf8.count + fields.count * 32)
        line.append(contentsOf: level.rawValue.utf8)
        line.append(UInt8(ascii: " "))
        appendEscaped(message, to: &line)
        for field in fields {
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: field.name.utf8)
            line.append(UInt8(ascii: "="))
            appendValue(field.value, to: &line)
        }
        line.append(UInt8(ascii: "\n"))
        return line
    }

    static func appendValue(_ value: String, to line: inout [UInt8]) {
        guard needsQuoting(value) else {
            line.append(contentsOf: value.utf8)
            return
        }
        line.append(UInt8(ascii: "\""))
        appendEscaped(value, to: &line)
        line.append(UInt8(ascii: "\""))
    }

    static func needsQuoting(_ value: String) -> Bool {
        value.isEmpty || value.unicodeScalars.contains { $0 == " " || escape(for: $0) != nil }
    }

    static func appendEscaped(_ text: String, to line: inout [UInt8]) {
        for scalar in text.unicodeScalars {
            if let escape = escape(for: scalar) {
                line.append(contentsOf: escape.utf8)
            } else {
                line.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
    }

    /// Backslash, quote, and everything a terminal or a line-based reader could take for a line
    /// break or a control sequence (C0, DEL, C1, U+2028/U+2029), written Swift-style.
    private static func escape(for scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\\": return "\\\\"
        case "\"": return "\\\""
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029:
                return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: return nil
            }
        }
    }
}
