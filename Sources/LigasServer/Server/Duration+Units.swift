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

    var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(wholeNanoseconds)
    }

    var timespec: Glibc.timespec {
        Glibc.timespec(tv_sec: Int(components.seconds), tv_nsec: Int(components.attoseconds / 1_000_000_000))
    }
}
