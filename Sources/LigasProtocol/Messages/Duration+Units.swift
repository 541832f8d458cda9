/// The one place a `Duration` becomes whole units: request deadlines, Dispatch timers, log fields.
extension Duration {
    /// Whole milliseconds (rounded toward zero), e.g. for a request's `deadlineMs`.
    public var wholeMilliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// Whole microseconds (rounded toward zero).
    public var wholeMicroseconds: Int64 {
        components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
    }

    /// Whole nanoseconds, saturating at `Int.max`.
    public var wholeNanoseconds: Int {
        let (seconds, overflow) = Int(components.seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : seconds.addingReportingOverflow(Int(components.attoseconds / 1_000_000_000)).partialValue
    }
}
