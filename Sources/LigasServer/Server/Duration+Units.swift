import Dispatch
import Glibc

/// The one place the server and the daemon turn a `Duration` into whole units: Dispatch timers,
/// the event loop's `epoll_pwait2` and log fields.
extension Duration {
    /// Whole microseconds (rounded toward zero).
    public var wholeMicroseconds: Int64 {
        components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
    }

    /// Whole nanoseconds, saturating at `Int.max`.
    public var wholeNanoseconds: Int {
        let (seconds, overflow) = Int(components.seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : seconds.addingReportingOverflow(Int(components.attoseconds / 1_000_000_000)).partialValue
    }

    /// Seconds as a person writes them, to the millisecond: "10", "0.2", "0.001" (settings' help
    /// and errors, and the error that names the shutdown grace).
    public var secondsText: String {
        let seconds = Double(self / .milliseconds(1)) / 1000
        return seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(wholeNanoseconds)
    }

    var timespec: Glibc.timespec {
        Glibc.timespec(tv_sec: Int(components.seconds), tv_nsec: Int(components.attoseconds / 1_000_000_000))
    }
}
