import FoundationEssentials
import Glibc
import LigasProtocol

/// How results reach stdout: stable JSON, or a table plus a one-line note of the source.
enum Printing {
    /// The JSON form: the protocol's result shapes, keys sorted, dates in ISO 8601 UTC.
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var data = try encoder.encode(value)
        data.append(0x0A)
        Terminal.standardOutput.write(data)
    }

    static func table(_ table: Table, source: ResultSource?) {
        let out = Terminal.standardOutput
        out.write(table.render(colour: out.usesColour))
        if let source { Terminal.standardError.write(dim("(\(table.rows.count) from \(source.rawValue))\n")) }
    }

    static func dim(_ text: String) -> String {
        Terminal.standardError.usesColour ? "\u{1B}[2m\(text)\u{1B}[0m" : text
    }

    /// Dates in the user's local time zone (`TZ`, else /etc/localtime), on a 24-hour clock
    /// whatever the locale: "2025-02-15 14:00". glibc's `localtime_r` and `strftime`, not
    /// Foundation's formatters, so the thin client needs no ICU for it.
    static func localDate(_ date: Date) -> String {
        tzset()
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return "?" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &local)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
