/// What a frame carries; the second byte of the frame header. `summary` says what each
/// kind is for (and is what `describe` lists).
public enum FrameKind: UInt8, Sendable, CaseIterable {
    case hello = 0x01
    case request = 0x02
    case response = 0x03
    case error = 0x04
    case streamChunk = 0x05
    case streamEnd = 0x06
    case cancel = 0x07

    /// The case name, e.g. `streamChunk`, as errors, logs and `describe` show it. (Not
    /// `CustomStringConvertible`, so that `String(describing:)` gives exactly that.)
    public var description: String { String(describing: self) }

    /// One line for `describe`.
    public var summary: String {
        switch self {
        case .hello: "Handshake, both directions, request id 0."
        case .request: "Client call (Request)."
        case .response: "Result; with flag streamFollows (bit 0) a StreamHeader."
        case .error: "ErrorBody; request id 0 = connection."
        case .streamChunk: "Raw stream bytes."
        case .streamEnd: "StreamEnd: total bytes and SHA-256."
        case .cancel: "Client stops a request; empty payload."
        }
    }
}

/// Header flags (big-endian u16). Undefined bits must be zero in version 1.
public struct FrameFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// On a `response`: the payload is a `StreamHeader` and chunk frames follow.
    public static let streamFollows = FrameFlags(rawValue: 1 << 0)

    /// Flags each kind may carry.
    static func allowed(for kind: FrameKind) -> FrameFlags {
        kind == .response ? .streamFollows : []
    }
}
