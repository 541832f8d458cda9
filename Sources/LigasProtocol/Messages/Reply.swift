/// A method's result, with the method it answers. The wire carries no method name in
/// responses: the client knows it from the request id, and decodes with `decodeResult`.
public struct Reply: Encodable, Sendable {
    public let method: any RPCMethod.Type
    public let result: any WireValue

    public init<M: RPCMethod>(_ method: M.Type, _ result: M.Result) {
        self.method = method
        self.result = result
    }

    /// Encodes the result itself (no wrapper), exactly as the response payload.
    public func encode(to encoder: any Encoder) throws {
        try result.encode(to: encoder)
    }
}
