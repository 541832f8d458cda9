import Logging

extension Logger.Level {
    /// The syslog priority journald stores in `PRIORITY` (7 debug … 2 critical). swift-log has no
    /// alert/emergency, and trace has no syslog level of its own, so it shares debug's.
    public var syslogPriority: Int {
        switch self {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
