import Foundation
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

    /// Dates in the user's local time zone, as people read them.
    static func localDate(_ date: Date) -> String {
        date.formatted(.dateTime.year().month(.twoDigits).day(.twoDigits).hour(.twoDigits(amPM: .omitted)).minute(.twoDigits))
    }
}
