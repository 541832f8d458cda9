/// A method together with its arguments.
public struct Call: Sendable, Hashable {
    public let method: any RPCMethod.Type
    public let arguments: any WireValue

    public init<M: RPCMethod>(_ method: M.Type, _ arguments: M.Arguments) {
        self.method = method
        self.arguments = arguments
    }

    public init<M: RPCMethod>(_ method: M.Type) where M.Arguments == NoArguments {
        self.init(method, NoArguments())
    }

    /// The arguments, typed, if this is a call of `method`.
    public func arguments<M: RPCMethod>(of method: M.Type) -> M.Arguments? {
        self.method.name == M.name ? arguments as? M.Arguments : nil
    }

    // The arguments are compared and hashed as the type they are (the existential is opened):
    // through `AnyHashable`, boxing them cost more than encoding the request they belong to.
    public static func == (lhs: Call, rhs: Call) -> Bool {
        lhs.method.name == rhs.method.name && lhs.arguments.isEqual(to: rhs.arguments)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method.name)
        arguments.hash(into: &hasher)
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

    public var method: any RPCMethod.Type { call.method }

    enum CodingKeys: String, CodingKey {
        case method, args, cache, deadlineMs
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .method)
        guard let method = Methods.named(name) else {
            throw ErrorBody(code: .unknownMethod, message: "unknown method \"\(name)\"", details: ["method": name])
        }
        cache = try container.decodeIfPresent(CachePolicy.self, forKey: .cache) ?? .default
        deadlineMs = try container.decodeIfPresent(UInt32.self, forKey: .deadlineMs)
        call = try method.call(from: container)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if call.method.takesArguments { try call.arguments.encode(in: &container, forKey: .args) }
        try container.encode(cache, forKey: .cache)
        try container.encode(call.method.name, forKey: .method)
        try container.encodeIfPresent(deadlineMs, forKey: .deadlineMs)
    }

    /// Server side: decodes a request payload, mapping failures to the error frame to
    /// send back (`unknownMethod`, which decoding throws as it is, or `badRequest` with the
    /// offending path).
    public static func decode(from payload: [UInt8], using decoder: CBORDecoder = CBORDecoder()) throws(ErrorBody) -> Request {
        do {
            return try decoder.decode(Request.self, from: payload)
        } catch let error as ErrorBody {
            throw error
        } catch {
            throw ErrorBody(code: .badRequest, decoding: error)
        }
    }
}

extension RPCMethod {
    /// This method's call, its arguments read from the request's `args`.
    fileprivate static func call(from container: KeyedDecodingContainer<Request.CodingKeys>) throws -> Call {
        Call(Self.self, takesArguments ? try container.decode(Arguments.self, forKey: .args) : NoArguments() as! Arguments)
    }
}

/// `args` depends on the method, so the shape is stated here, beside that coding.
extension Request: CustomWireSchema {
    static let wireSchema = TypeDescription(name: "Request", kind: .map, fields: [
        .init(name: "method", type: "text"), .init(name: "args", type: "map", optional: true),
        .init(name: "cache", type: "CachePolicy", optional: true), .init(name: "deadlineMs", type: "uint", optional: true),
    ])
    static var wireReferences: [any Decodable.Type] { [CachePolicy.self] }
}
