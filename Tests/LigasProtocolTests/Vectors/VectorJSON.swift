import Foundation
import LigasProtocol

/// The JSON side of the vectors: dates as RFC 3339 UTC text with milliseconds, byte
/// strings as lowercase hex, everything else as the CBOR structure with the same keys.
enum VectorJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { @Sendable date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(rfc3339(date))
        }
        encoder.dataEncodingStrategy = .custom { @Sendable data, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Hex.encode(data))
        }
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { @Sendable decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = parseRFC3339(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad date \(text)"))
            }
            return date
        }
        decoder.dataDecodingStrategy = .custom { @Sendable decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let bytes = Hex.decode(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad hex"))
            }
            return Data(bytes)
        }
        return decoder
    }

    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    static func parseRFC3339(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let parsed = formatter.date(from: text) else { return nil }
        // Normalize to whole milliseconds, exactly as the CBOR decoder does.
        return Date(timeIntervalSince1970: (parsed.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    /// JSON text of a vector payload's value (nil for raw chunks and cancel).
    static func valueJSON(_ payload: VectorPayload) throws -> String? {
        let encoder = encoder()
        let data: Data
        switch payload {
        case .hello(let hello): data = try encoder.encode(hello)
        case .request(let request): data = try encoder.encode(request)
        case .reply(let reply): data = try encoder.encode(reply)
        case .streamHeader(let header): data = try encoder.encode(header)
        case .error(let body): data = try encoder.encode(body)
        case .streamEnd(let end): data = try encoder.encode(end)
        case .streamChunk, .cancel: return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Decodes a vector's JSON value into the payload type its kind and method imply.
    static func payload(kind: FrameKind, flags: FrameFlags, method: (any RPCMethod.Type)?, valueJSON: Data?, rawPayload: [UInt8]) throws -> VectorPayload {
        let decoder = decoder()
        func value<T: Decodable>(_ type: T.Type) throws -> T {
            guard let valueJSON else { throw VectorFormatError("missing value") }
            return try decoder.decode(type, from: valueJSON)
        }
        switch kind {
        case .hello: return .hello(try value(Hello.self))
        case .request: return .request(try value(Request.self))
        case .response where flags.contains(.streamFollows): return .streamHeader(try value(StreamHeader.self))
        case .response:
            guard let method else { throw VectorFormatError("response vector without method") }
            guard let valueJSON else { throw VectorFormatError("missing value") }
            return .reply(try method.reply(json: valueJSON, decoder: decoder))
        case .error: return .error(try value(ErrorBody.self))
        case .streamChunk: return .streamChunk(rawPayload)
        case .streamEnd: return .streamEnd(try value(StreamEnd.self))
        case .cancel: return .cancel
        }
    }

}

extension RPCMethod {
    /// This method's result, read from a vector's JSON value.
    static func reply(json: Data, decoder: JSONDecoder) throws -> Reply {
        Reply(Self.self, try decoder.decode(Result.self, from: json))
    }
}

struct VectorFormatError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
