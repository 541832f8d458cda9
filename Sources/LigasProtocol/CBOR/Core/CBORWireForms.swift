import FoundationEssentials

/// The single documented wire form of `Date` (see PROTOCOL.md, "Dates and URLs"):
/// tag 1 (epoch seconds) wrapping an integer when the instant is a whole second,
/// else a float carrying millisecond precision. Dates are rounded to whole
/// milliseconds on both sides, so a value survives a round trip exactly.
enum CBORDateForm {
    /// ±2^47 ms (about years -2490 to 6430): far beyond any fixture, and small enough
    /// that a Double carries every millisecond exactly through `Date`'s own offset.
    static let maxMagnitudeMilliseconds: UInt64 = 1 << 47

    /// Seconds since 1970 rounded to whole milliseconds; nil when not finite or out of range.
    static func epochMilliseconds(seconds: Double) -> Int64? {
        guard let milliseconds = Int64(exactly: (seconds * 1000).rounded()),
              milliseconds.magnitude <= maxMagnitudeMilliseconds else { return nil }
        return milliseconds
    }

    static func append(_ date: Date, to out: inout CBOROutput) throws {
        guard let milliseconds = epochMilliseconds(seconds: date.timeIntervalSince1970) else {
            throw EncodingError.invalidValue(date, .init(codingPath: [], debugDescription: "date is not finite or beyond ±2^47 ms from 1970"))
        }
        out.appendCBORHead(.tag, CBORConstant.epochDateTag)
        if milliseconds % 1000 == 0 {
            out.appendCBORSigned(milliseconds / 1000)
        } else {
            out.appendCBORDouble(Double(milliseconds) / 1000)
        }
    }
}
