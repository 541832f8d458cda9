/// Result of `describe`: a machine-readable description of the whole interface, in
/// the spirit of varlink's interface description. Only this library builds these (with
/// the memberwise initializers); clients decode them. Type expressions use:
/// `text`, `uint`, `int`, `bool`, `bytes`, `url` (text), `date` (tag 1),
/// `[T]` (array of T), `map<text,text>`, or the name of an entry in `types`.
public struct InterfaceDescription: Codable, Sendable, Hashable {
    public var name: String
    public var protocolVersion: UInt8
    public var methods: [MethodDescription]
    public var types: [TypeDescription]
    public var errors: [ErrorDescription]
    public var frameKinds: [FrameKindDescription]
}

public struct MethodDescription: Codable, Sendable, Hashable {
    public var name: String
    public var summary: String
    /// Type of `args`; absent for methods without arguments.
    public var arguments: String?
    /// Type of the response payload (for streams: of the stream header).
    public var result: String
    /// True when the result is a stream of raw chunks.
    public var streams: Bool
}

/// A named type: a map with `fields`, a text enumeration with `values`, or a map with
/// exactly one of `oneOf`.
public struct TypeDescription: Codable, Sendable, Hashable {
    public var name: String
    public var kind: Kind
    public var fields: [FieldDescription]?
    public var values: [String]?
    public var oneOf: [FieldDescription]?

    public enum Kind: String, Codable, Sendable, Hashable {
        case map, `enum`, choice
    }
}

public struct FieldDescription: Codable, Sendable, Hashable {
    public var name: String
    public var type: String
    public var optional = false
}

public struct ErrorDescription: Codable, Sendable, Hashable {
    public var code: String
    public var summary: String
}

public struct FrameKindDescription: Codable, Sendable, Hashable {
    public var name: String
    public var code: UInt8
    public var summary: String
}
