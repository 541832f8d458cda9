/// A stable, named error code, carried as text. A struct rather than an enum so a
/// client keeps decoding error frames when a newer server adds codes.
public struct ErrorCode: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Coded as its text alone: the standard library's coding of `RawRepresentable` types.
    public var description: String { rawValue }

    // The codes of this protocol version; `known` says what each means.
    public static let badFrame = ErrorCode(rawValue: "badFrame")
    public static let frameTooLarge = ErrorCode(rawValue: "frameTooLarge")
    public static let unsupportedVersion = ErrorCode(rawValue: "unsupportedVersion")
    public static let unknownMethod = ErrorCode(rawValue: "unknownMethod")
    public static let badRequest = ErrorCode(rawValue: "badRequest")
    public static let notFound = ErrorCode(rawValue: "notFound")
    public static let connectivity = ErrorCode(rawValue: "connectivity")
    public static let invalidData = ErrorCode(rawValue: "invalidData")
    public static let noCache = ErrorCode(rawValue: "noCache")
    public static let quotaExceeded = ErrorCode(rawValue: "quotaExceeded")
    public static let deadlineExceeded = ErrorCode(rawValue: "deadlineExceeded")
    public static let tooManyRequests = ErrorCode(rawValue: "tooManyRequests")
    public static let resultTooLarge = ErrorCode(rawValue: "resultTooLarge")
    public static let shuttingDown = ErrorCode(rawValue: "shuttingDown")
    public static let cutOff = ErrorCode(rawValue: "cutOff")
    public static let misconfigured = ErrorCode(rawValue: "misconfigured")
    public static let `internal` = ErrorCode(rawValue: "internal")

    /// Every code defined by this protocol version, with a one-line meaning.
    public static let known: [(code: ErrorCode, summary: String)] = [
        (.badFrame, "A frame could not be parsed; the connection is closed."),
        (.frameTooLarge, "A frame exceeded the receiver's maxFrameSize; the connection is closed."),
        (.unsupportedVersion, "No common protocol version or a frame of another version; the connection is closed."),
        (.unknownMethod, "The request names an unknown method."),
        (.badRequest, "The request payload is invalid for its method."),
        (.notFound, "The requested league, team, player or image does not exist."),
        (.connectivity, "The remote source is unreachable and nothing cached could be used."),
        (.invalidData, "The remote source returned data that failed validation."),
        (.noCache, "Offline (policy or connectivity) and nothing is cached."),
        (.quotaExceeded, "A data provider's request quota is spent and nothing cached could be used."),
        (.deadlineExceeded, "The request's deadline passed."),
        (.tooManyRequests, "More requests in flight than the server's maxInFlight."),
        (.resultTooLarge, "The answer does not fit in one frame of the client's maxFrameSize."),
        (.shuttingDown, "The daemon is shutting down."),
        (.cutOff, "The daemon stopped before the request finished (its shutdown grace ran out); it was started, so whether it was carried out is unknown; the connection is closed."),
        (.misconfigured, "The daemon cannot start: its configuration is invalid (the message names the setting); the connection is closed."),
        (.internal, "Unexpected failure inside the daemon."),
    ]
}
