/// Payload of an `error` frame, and the error type the protocol helpers throw so a
/// server can send it back as is.
public struct ErrorBody: Error, Codable, Sendable, Hashable, CustomStringConvertible {
    public var code: ErrorCode
    /// Human-readable, for logs; clients branch on `code`, never on the message.
    public var message: String
    /// Optional machine-readable context, e.g. `["path": "args.league"]`.
    public var details: [String: String]?

    public init(code: ErrorCode, message: String, details: [String: String]? = nil) {
        self.code = code
        self.message = message
        self.details = details
    }

    public var description: String { "\(code): \(message)" }
}

extension ErrorBody {
    /// A request payload that failed to decode.
    static func badRequest(_ error: CBORDecodingError) -> ErrorBody {
        var details: [String: String]?
        switch error {
        case .keyNotFound(let path), .typeMismatch(_, let path), .valueNotFound(_, let path),
             .numberOutOfRange(_, let path), .invalidValue(_, let path):
            details = ["path": path]
        default:
            details = nil
        }
        return ErrorBody(code: .badRequest, message: error.description, details: details)
    }
}
