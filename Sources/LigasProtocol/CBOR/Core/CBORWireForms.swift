import FoundationEssentials

/// The single documented wire form of `Date` (see PROTOCOL.md, "Dates and URLs"):
/// tag 1 (epoch seconds) wrapping an integer when the instant is a whole second,
/// else a float carrying millisecond precision. Dates are rounded to whole
/// milliseconds on both sides, so a value survives a round trip exactly.
enum CBORDateForm {
    /// ±2^47 ms (about years -2490 to 6430): far beyond any fixture, and small enough
    /// that a Double carries every millisecond exactly through `Date`'s own offset.
    static let maxMagnitudeMilliseconds: Int64 = 1 << 47

    static func epochMilliseconds(of date: Date) -> Int64? {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard let exact = Int64(exactly: milliseconds), isRepresentable(exact) else { return nil }
        return exact
    }

    static func isRepresentable(_ milliseconds: Int64) -> Bool {
        milliseconds >= -maxMagnitudeMilliseconds && milliseconds <= maxMagnitudeMilliseconds
    }

    static func date(epochMilliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(epochMilliseconds) / 1000)
    }

    static func append(_ date: Date, to out: inout CBOROutput) throws {
        guard let milliseconds = epochMilliseconds(of: date) else {
            throw EncodingError.invalidValue(date, .init(codingPath: [], debugDescription: "date is not finite or beyond ±2^47 ms from 1970"))
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
    static func append(_ url: URL, to out: inout CBOROutput) {
        out.appendCBORText(url.absoluteString)
    }
}
