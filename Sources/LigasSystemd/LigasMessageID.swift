import Logging

/// Stable journal `MESSAGE_ID`s for the daemon's notable events: `journalctl MESSAGE_ID=…` finds
/// every occurrence across versions, and the journal catalog explains them. Never change a value
/// once released; add a new case instead. (Generated once with `uuid.uuid4().hex`.)
public enum LigasMessageID: String, Sendable, CaseIterable {
    case daemonStarted = "d55b505394e045239fdff22ef3208ad0"
    case daemonStopped = "2c0154e5c5ee4ea7bc65fef9568b6402"
    case requestServed = "828ecda7d67d462d8ad4475c581a128c"
    case remoteFailedWithFallback = "30fdf3b823a74a888593d184d5c00808"
    case cacheValidated = "2a725ccca1d84ef1997708ffabf5d7a3"
    case imageStreamed = "9a149b2d037c4f4d99ed786b36ce986a"
    case clientProtocolError = "dc552866e5b8418585ecea5f75ac89dc"
    case requestBudget = "5d9af89d240b46b088d9c9a710833ed1"

    /// The 128-bit id as 32 lowercase hex characters, the form journald and catalog files use.
    public var hex: String { rawValue }

    /// Metadata that tags a log call with this id: `logger.info("…", metadata: LigasMessageID.daemonStarted.metadata)`.
    public var metadata: Logger.Metadata { [JournalFieldName.messageID: .string(rawValue)] }
}
