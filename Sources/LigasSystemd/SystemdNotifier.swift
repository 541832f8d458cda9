import CSystemd
import Glibc

/// Tells the service manager about the daemon's state (`Type=notify`) with `sd_notify`.
///
/// Without `NOTIFY_SOCKET` (not started by systemd, or not `Type=notify`) every call does nothing.
/// The environment is left as is (`unset_environment` = 0), so every call, and any child, still sees it.
public struct SystemdNotifier: Sendable {
    public init() {}

    /// Whether there is a service manager to notify.
    public var isEnabled: Bool { getenv("NOTIFY_SOCKET") != nil }

    /// Start-up is complete: systemd now considers the unit active. Sending a status along saves a datagram.
    public func ready(status: String? = nil) throws(SystemdError) {
        try notify(status.map { "READY=1\nSTATUS=\(Self.oneLine($0))" } ?? "READY=1")
    }

    /// Free-form text `systemctl status` shows.
    public func status(_ text: String) throws(SystemdError) {
        try notify("STATUS=\(Self.oneLine(text))")
    }

    /// Shutdown has begun.
    public func stopping() throws(SystemdError) {
        try notify("STOPPING=1")
    }

    /// Keep-alive ping for `WatchdogSec=`; send it every `watchdogInterval / 2`.
    public func watchdog() throws(SystemdError) {
        try notify("WATCHDOG=1")
    }

    /// Sends raw newline-separated `KEY=value` assignments (see sd_notify(3)).
    public func notify(_ assignments: String) throws(SystemdError) {
        guard isEnabled else { return }
        let result = sd_notify(0, assignments)
        if result < 0 { throw SystemdError("sd_notify", returned: result) }
    }

    /// The watchdog timeout systemd expects pings within, if `WatchdogSec=` is on for this process
    /// (`WATCHDOG_USEC`, and `WATCHDOG_PID` when set must be our pid); nil otherwise.
    public var watchdogInterval: Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0 else { return nil }
        return .microseconds(Int64(clamping: microseconds))
    }

    /// A newline would end the assignment early and let the rest be read as another one
    /// (`"x\nREADY=1"`), so status text is kept to one line.
    static func oneLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(scalar == "\n" || scalar == "\r" ? " " : scalar) }
        return String(scalars)
    }
}
