/// A received frame with its payload decoded by kind. Plain responses stay raw because
/// their type depends on the request's method (see `RPCMethod.decodeResult`).
public enum Message: Sendable, Hashable {
    case hello(Hello)
    case request(id: UInt32, Request)
    case response(id: UInt32, payload: [UInt8])
    /// A `response` frame with `streamFollows`: chunks and a `streamEnd` follow.
    case streamStart(id: UInt32, StreamHeader)
    case error(id: UInt32, ErrorBody)
    case streamChunk(id: UInt32, bytes: [UInt8])
    case streamEnd(id: UInt32, StreamEnd)
    case cancel(id: UInt32)

    /// Throws the `ErrorBody` a server would answer with: `unknownMethod`/`badRequest`
    /// for requests, `badFrame` for other undecodable payloads.
    public init(frame: Frame, using decoder: CBORDecoder = CBORDecoder()) throws(ErrorBody) {
        let id = frame.requestID
        switch frame.kind {
        case .hello:
            self = .hello(try Self.payload(Hello.self, of: frame, decoder))
        case .request:
            self = .request(id: id, try Request.decode(from: frame.payload, using: decoder))
        case .response where frame.header.flags.contains(.streamFollows):
            self = .streamStart(id: id, try Self.payload(StreamHeader.self, of: frame, decoder))
        case .response:
            self = .response(id: id, payload: frame.payload)
        case .error:
            self = .error(id: id, try Self.payload(ErrorBody.self, of: frame, decoder))
        case .streamChunk:
            self = .streamChunk(id: id, bytes: frame.payload)
        case .streamEnd:
            self = .streamEnd(id: id, try Self.payload(StreamEnd.self, of: frame, decoder))
        case .cancel:
            self = .cancel(id: id)
        }
    }

    private static func payload<T: Decodable>(_ type: T.Type, of frame: Frame, _ decoder: CBORDecoder) throws(ErrorBody) -> T {
        do {
            return try decoder.decode(type, from: frame.payload)
        } catch {
            throw ErrorBody(code: .badFrame, decoding: error, context: "invalid \(frame.kind) payload: ")
        }
    }
}
