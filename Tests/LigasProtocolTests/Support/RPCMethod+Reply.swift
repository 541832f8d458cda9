import LigasProtocol

extension RPCMethod {
    /// A response payload decoded as this method's result, for tests that hold the method
    /// only as `any RPCMethod.Type` (a client knows its type and calls `decodeResult`).
    static func reply(decoding payload: [UInt8]) throws -> Reply {
        Reply(Self.self, try decodeResult(payload))
    }
}
