/// The syntax of systemd's `EnvironmentFile=`, so that the config file means the same to ligasd
/// (`--config`, `LIGASD_CONFIG`) as to systemd (the units' `EnvironmentFile=`). It follows
/// `parse_env_file_internal` in systemd's `src/basic/env-file.c`, character by character:
/// - a line whose first non-blank character is `#` or `;` is a comment; blank lines are skipped;
/// - the name is what comes before the first `=`, blanks around it dropped;
/// - in the value, blanks after `=` are skipped, then: `'…'` is literal (newlines included);
///   `"…"` takes `\"`, `\\`, `` \` `` and `\$` as the character, drops a backslash-newline and keeps
///   any other backslash with its character; unquoted text takes the character after any backslash
///   as it is, drops a backslash-newline (a continuation line) and loses its trailing blanks, and
///   `#` or quotes inside it are plain characters. Quoted and unquoted pieces may follow each
///   other (`'a' b` is `ab`); `$` is never expanded; CR counts as a line end, as LF does.
///
/// Where systemd goes on silently with something the writer cannot have meant, ligasd stops with
/// the line's number instead: a line with no `=` (systemd skips it), a quote still open at the end
/// of the file (systemd takes the rest of the file as the value), and a comment ending in a
/// backslash (systemd up to 253 makes the next line part of the comment, 254 and later do not).
enum EnvironmentFileSyntax {
    /// One `NAME=value`, and the line its name is on (counting LF, as editors do).
    struct Assignment: Equatable {
        let line: Int
        let name: String
        let value: String
    }

    /// Every assignment in `text`, in order (a later one of a name wins, as in systemd).
    static func assignments(in text: String) throws(ConfigurationError) -> [Assignment] {
        var parser = Parser()
        for byte in text.utf8 { try parser.consume(byte) }
        return try parser.finish()
    }

    private struct Parser {
        enum State { case beforeName, name, beforeValue, unquoted, unquotedEscape, singleQuoted, doubleQuoted, doubleQuotedEscape, comment, commentEscape }

        var state = State.beforeName
        var assignments: [Assignment] = []
        var line = 1
        var nameLine = 1
        var quoteLine = 1
        // UTF-8 bytes: every character that matters is ASCII, so a split never cuts a character.
        var name: [UInt8] = []
        var value: [UInt8] = []
        /// Where the trailing blanks of the name, or of an unquoted value, begin.
        var nameBlanks: Int?
        var valueBlanks: Int?

        mutating func consume(_ c: UInt8) throws(ConfigurationError) {
            defer { if c == .lineFeed { line += 1 } }
            switch state {
            case .beforeName:
                if c == .hash || c == .semicolon {
                    state = .comment
                } else if !c.isBlank {
                    state = .name
                    nameLine = line
                    name = [c]
                    nameBlanks = nil
                }
            case .name:
                if c.isLineEnd {
                    throw ConfigurationError(key: "line \(nameLine)", value: ConfigurationError.shownName(Self.text(name).trimmingWhitespace()), expected: "KEY=value")
                } else if c == .equals {
                    state = .beforeValue
                    value = []
                    valueBlanks = nil
                } else {
                    nameBlanks = c.isBlank ? nameBlanks ?? name.count : nil
                    name.append(c)
                }
            case .beforeValue:
                if c.isLineEnd {
                    push()
                } else if c == .singleQuote {
                    state = .singleQuoted
                    quoteLine = line
                } else if c == .doubleQuote {
                    state = .doubleQuoted
                    quoteLine = line
                } else if c == .backslash {
                    state = .unquotedEscape
                } else if !c.isBlank {
                    state = .unquoted
                    value.append(c)
                }
            case .unquoted:
                if c.isLineEnd {
                    push()
                } else if c == .backslash {
                    state = .unquotedEscape
                    valueBlanks = nil
                } else {
                    valueBlanks = c.isBlank ? valueBlanks ?? value.count : nil
                    value.append(c)
                }
            case .unquotedEscape:
                state = .unquoted
                if !c.isLineEnd { value.append(c) }
            case .singleQuoted:
                if c == .singleQuote { state = .beforeValue } else { value.append(c) }
            case .doubleQuoted:
                if c == .doubleQuote {
                    state = .beforeValue
                } else if c == .backslash {
                    state = .doubleQuotedEscape
                } else {
                    value.append(c)
                }
            case .doubleQuotedEscape:
                state = .doubleQuoted
                if [.doubleQuote, .backslash, .backtick, .dollar].contains(c) {
                    value.append(c)
                } else if c != .lineFeed {  // only LF: systemd keeps a backslash before CR
                    value += [.backslash, c]
                }
            case .comment:
                if c == .backslash { state = .commentEscape } else if c.isLineEnd { state = .beforeName }
            case .commentEscape:
                if c == .lineFeed {
                    throw ConfigurationError(
                        key: "line \(line)", value: "a comment ending in a backslash",
                        expected: "no backslash at its end (systemd before 254 joins the next line to the comment, later ones do not)")
                }
                state = c.isLineEnd ? .beforeName : .comment
            }
        }

        mutating func finish() throws(ConfigurationError) -> [Assignment] {
            switch state {
            case .beforeName, .comment, .commentEscape:
                break
            case .name:
                throw ConfigurationError(key: "line \(nameLine)", value: ConfigurationError.shownName(Self.text(name).trimmingWhitespace()), expected: "KEY=value")
            case .singleQuoted, .doubleQuoted, .doubleQuotedEscape:
                throw ConfigurationError(
                    key: "line \(quoteLine)", value: ConfigurationError.shownName(Self.text(name).trimmingWhitespace()),
                    expected: "a closing quote (the one opened on this line is still open at the end of the file)")
            case .beforeValue, .unquoted, .unquotedEscape:
                push()
            }
            return assignments
        }

        private mutating func push() {
            if state == .unquoted, let valueBlanks { value.removeSubrange(valueBlanks...) }
            if let nameBlanks { name.removeSubrange(nameBlanks...) }
            assignments.append(Assignment(line: nameLine, name: Self.text(name), value: Self.text(value)))
            state = .beforeName
        }

        private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
    }
}

extension UInt8 {
    fileprivate static let lineFeed = UInt8(ascii: "\n")
    fileprivate static let hash = UInt8(ascii: "#")
    fileprivate static let semicolon = UInt8(ascii: ";")
    fileprivate static let equals = UInt8(ascii: "=")
    fileprivate static let singleQuote = UInt8(ascii: "'")
    fileprivate static let doubleQuote = UInt8(ascii: "\"")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let backtick = UInt8(ascii: "`")
    fileprivate static let dollar = UInt8(ascii: "$")

    /// systemd's `NEWLINE`: CR ends a line too.
    fileprivate var isLineEnd: Bool { self == .lineFeed || self == UInt8(ascii: "\r") }
    /// systemd's `WHITESPACE`.
    fileprivate var isBlank: Bool { isLineEnd || self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") }
}
