import Foundation

/// The single documented wire form of `Date` (see PROTOCOL.md, "Dates and URLs"):
/// tag 1 (epoch seconds) wrapping an integer when the instant is a whole second,
/// else a float carrying millisecond precision. Dates are rounded to whole
/// milliseconds on both sides, so a value survives a round trip exactly.
enum CBORDateForm {
    static func epochMilliseconds(of date: Date) -> Int64? {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return Int64(exactly: milliseconds)
    }

    static func date(epochMilliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(epochMilliseconds) / 1000)
    }

    static func append(_ date: Date, to out: inout [UInt8]) throws {
        guard let milliseconds = epochMilliseconds(of: date) else {
            throw EncodingError.invalidValue(date, .init(codingPath: [], debugDescription: "date is not finite"))
        }
        out.appendCBORTag(CBORConstant.epochDateTag)
        if milliseconds % 1000 == 0 {
            out.appendCBORSigned(milliseconds / 1000)
        } else {
            out.appendCBORDouble(Double(milliseconds) / 1000)
        }
    }
}

/// The single documented wire form of `URL`: its absolute string as CBOR text.
/// Tag 32 (URI) is accepted on input for interoperability but never written.
enum CBORURLForm {
    static func append(_ url: URL, to out: inout [UInt8]) {
        out.appendCBORText(url.absoluteString)
    }
}
