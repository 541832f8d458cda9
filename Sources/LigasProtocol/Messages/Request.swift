/// A method together with its arguments.
public enum Call: Sendable, Hashable {
    case ping
    case leagues
    case teams(TeamsArguments)
    case players(PlayersArguments)
    case matches(MatchesArguments)
    case image(ImageArguments)
    case status
    case describe

    public var method: Method {
        switch self {
        case .ping: .ping
        case .leagues: .leagues
        case .teams: .teams
        case .players: .players
        case .matches: .matches
        case .image: .image
        case .status: .status
        case .describe: .describe
        }
    }
}

/// Payload of a `request` frame:
/// `{"method": text, ? "args": {...}, "cache": text, ? "deadlineMs": uint}`.
/// `args` is present exactly for methods that take arguments.
public struct Request: Codable, Sendable, Hashable {
    public var call: Call
    /// Milliseconds the client is willing to wait, counted from when the server reads
    /// the request; past it the server answers `deadlineExceeded`.
    public var deadlineMs: UInt32?
    public var cache: CachePolicy

    public init(_ call: Call, deadlineMs: UInt32? = nil, cache: CachePolicy = .default) {
        self.call = call
        self.deadlineMs = deadlineMs
        self.cache = cache
    }

    public var method: Method { call.method }

    enum CodingKeys: String, CodingKey {
        case args, cache, method, deadlineMs
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .method)
        guard let method = Method(rawValue: name) else { throw UnknownMethodError(name: name) }
        cache = try container.decodeIfPresent(CachePolicy.self, forKey: .cache) ?? .default
        deadlineMs = try container.decodeIfPresent(UInt32.self, forKey: .deadlineMs)
        switch method {
        case .ping: call = .ping
        case .leagues: call = .leagues
        case .teams: call = .teams(try container.decode(TeamsArguments.self, forKey: .args))
        case .players: call = .players(try container.decode(PlayersArguments.self, forKey: .args))
        case .matches: call = .matches(try container.decode(MatchesArguments.self, forKey: .args))
        case .image: call = .image(try container.decode(ImageArguments.self, forKey: .args))
        case .status: call = .status
        case .describe: call = .describe
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch call {
        case .teams(let arguments): try container.encode(arguments, forKey: .args)
        case .players(let arguments): try container.encode(arguments, forKey: .args)
        case .matches(let arguments): try container.encode(arguments, forKey: .args)
        case .image(let arguments): try container.encode(arguments, forKey: .args)
        case .ping, .leagues, .status, .describe: break
        }
        try container.encode(cache, forKey: .cache)
        try container.encode(call.method, forKey: .method)
        try container.encodeIfPresent(deadlineMs, forKey: .deadlineMs)
    }

    /// Server side: decodes a request payload, mapping failures to the error frame to
    /// send back (`unknownMethod`, or `badRequest` with the offending path).
    public static func decode(from payload: [UInt8], using decoder: CBORDecoder = CBORDecoder()) throws(ErrorBody) -> Request {
        do {
            return try decoder.decode(Request.self, from: payload)
        } catch let error as UnknownMethodError {
            throw ErrorBody(code: .unknownMethod, message: "unknown method \"\(error.name)\"", details: ["method": error.name])
        } catch let error as CBORDecodingError {
            throw ErrorBody.badRequest(error)
        } catch {
            throw ErrorBody(code: .badRequest, message: "\(error)")
        }
    }
}

/// Thrown while decoding a `Request` whose method name is not known.
public struct UnknownMethodError: Error, Sendable, Hashable {
    public var name: String
}
