/// Framing failures. All of them are fatal for the connection: the receiver sends an
/// error frame with request id 0 (see `errorBody`) and closes.
public enum FrameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The announced length exceeds the receiver's max frame size (nothing was allocated).
    case frameTooLarge(length: Int, limit: Int)
    /// The announced length cannot even hold the 8-byte header.
    case frameTooShort(length: Int)
    case unsupportedVersion(UInt8)
    case unknownFrameKind(UInt8)
    /// Flag bits that are undefined for this kind are set.
    case reservedFlags(kind: FrameKind, flags: UInt16)
    /// Hello with a non-zero id, or a call frame with id 0.
    case invalidRequestID(kind: FrameKind, requestID: UInt32)
    /// A cancel frame with a payload.
    case unexpectedPayload(kind: FrameKind, length: Int)

    public var description: String {
        switch self {
        case .frameTooLarge(let length, let limit): "frame of \(length) bytes exceeds the limit of \(limit)"
        case .frameTooShort(let length): "frame of \(length) bytes is shorter than its 8-byte header"
        case .unsupportedVersion(let version): "unsupported protocol version \(version)"
        case .unknownFrameKind(let kind): "unknown frame kind \(kind)"
        case .reservedFlags(let kind, let flags): "reserved flags 0x\(String(flags, radix: 16)) set on \(kind) frame"
        case .invalidRequestID(let kind, let requestID): "request id \(requestID) is not valid on a \(kind) frame"
        case .unexpectedPayload(let kind, let length): "\(kind) frame must be empty but carries \(length) bytes"
        }
    }

    /// The error frame body to send before closing the connection.
    public var errorBody: ErrorBody {
        let code: ErrorCode = switch self {
        case .frameTooLarge: .frameTooLarge
        case .unsupportedVersion: .unsupportedVersion
        default: .badFrame
        }
        return ErrorBody(code: code, message: description)
    }
}
