/// A stable, named error code, carried as text. A struct rather than an enum so a
/// client keeps decoding error frames when a newer server adds codes.
public struct ErrorCode: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Coded as its text alone: the standard library's coding of `RawRepresentable` types.
    public var description: String { rawValue }

    /// A frame could not be parsed (length below 8, unknown kind, reserved flags, bad id,
    /// a frame the peer may not send, an invalid non-request payload or hello). Fatal.
    public static let badFrame = ErrorCode(rawValue: "badFrame")
    /// A frame announced more than the receiver's max frame size. Fatal.
    public static let frameTooLarge = ErrorCode(rawValue: "frameTooLarge")
    /// No common protocol version, or a frame with another version. Fatal.
    public static let unsupportedVersion = ErrorCode(rawValue: "unsupportedVersion")
    /// The request names a method the server does not have.
    public static let unknownMethod = ErrorCode(rawValue: "unknownMethod")
    /// The request payload is not valid for its method (details.path says where).
    public static let badRequest = ErrorCode(rawValue: "badRequest")
    /// The league, team, player or image does not exist.
    public static let notFound = ErrorCode(rawValue: "notFound")
    /// The remote source could not be reached and no cached data could stand in.
    public static let connectivity = ErrorCode(rawValue: "connectivity")
    /// The remote source answered with data that failed validation.
    public static let invalidData = ErrorCode(rawValue: "invalidData")
    /// Offline (by policy or lack of connectivity) and nothing is cached.
    public static let noCache = ErrorCode(rawValue: "noCache")
    /// A provider's request quota is spent (ligasd's monthly budget, or the provider's 429) and
    /// nothing cached could stand in.
    public static let quotaExceeded = ErrorCode(rawValue: "quotaExceeded")
    /// The request's deadline passed before a result was ready.
    public static let deadlineExceeded = ErrorCode(rawValue: "deadlineExceeded")
    /// More requests in flight than the server's announced maxInFlight.
    public static let tooManyRequests = ErrorCode(rawValue: "tooManyRequests")
    /// The answer does not fit one frame of the client's announced maxFrameSize (details say
    /// how big it was and the limit). The request ends; the connection stays open.
    public static let resultTooLarge = ErrorCode(rawValue: "resultTooLarge")
    /// The daemon is stopping; retry after reconnecting.
    public static let shuttingDown = ErrorCode(rawValue: "shuttingDown")
    /// A bug or unexpected failure in the daemon.
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
        (.internal, "Unexpected failure inside the daemon."),
    ]
}
