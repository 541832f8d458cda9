/// A value that can travel as a method's arguments or result.
public typealias WireValue = Codable & Sendable & Hashable

/// One method of the protocol, declared once: its wire name, argument and result types,
/// whether it streams, and its summary. `Methods.all` lists them; request and reply
/// decoding, `describe`, the request log and the daemon's dispatch all come from there.
public protocol RPCMethod: Sendable {
    /// `NoArguments` (the default) for a method whose request has no `args` key.
    associatedtype Arguments: WireValue = NoArguments
    /// The response payload; for a streaming method, the stream header.
    associatedtype Result: WireValue
    static var name: String { get }
    static var summary: String { get }
    /// True when raw chunks and a `streamEnd` follow the result.
    static var streams: Bool { get }
}

extension RPCMethod {
    public static var streams: Bool { false }

    /// Decodes this method's result from a response payload.
    public static func decodeResult(_ payload: [UInt8], using decoder: CBORDecoder = CBORDecoder()) throws -> Result {
        try decoder.decode(Result.self, from: payload)
    }

    static var takesArguments: Bool { Arguments.self != NoArguments.self }
}

/// The arguments of a method that takes none: the request carries no `args` key.
public struct NoArguments: WireValue {
    public init() {}
}

extension Hashable {
    /// For comparing type-erased arguments and results (`any WireValue`): whether `other` is a
    /// value of this type, equal to this one.
    func isEqual(to other: any Hashable) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}

extension Encodable {
    /// Encodes a type-erased value (`any WireValue`) as the value it is.
    func encode<Key: CodingKey>(in container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        try container.encode(self, forKey: key)
    }
}
