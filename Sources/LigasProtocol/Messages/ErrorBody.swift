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
    /// Answers a payload that failed to decode: `badRequest` for a request, `badFrame` for
    /// other kinds, with the decoder's `details` (PROTOCOL.md §3.5).
    init(code: ErrorCode, decoding error: any Error, context: String = "") {
        self.init(code: code, message: context + "\(error)", details: (error as? CBORDecodingError)?.details)
    }
}

extension CBORDecodingError {
    /// The `details` of the error frame answering a payload that failed to decode (PROTOCOL.md
    /// §3.5): `path` when it is well-formed CBOR that does not fit the schema (`""` for the
    /// top-level item), `offset` (decimal, in the payload) when it is not well-formed CBOR.
    public var details: [String: String] {
        switch self {
        case .keyNotFound(let path), .typeMismatch(_, let path), .valueNotFound(_, let path),
             .numberOutOfRange(_, let path), .invalidValue(_, let path):
            ["path": path]
        case .truncated(let offset), .lengthExceedsInput(let offset), .malformed(_, let offset),
             .depthLimitExceeded(_, let offset), .trailingBytes(let offset):
            ["offset": String(offset)]
        }
    }
}
