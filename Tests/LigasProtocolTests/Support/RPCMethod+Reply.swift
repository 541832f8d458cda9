@testable import LigasProtocol

extension RPCMethod {
    /// A response payload decoded as this method's result, for tests that hold the method
    /// only as `any RPCMethod.Type` (a client knows its type and calls `decodeResult`).
    static func reply(decoding payload: [UInt8]) throws -> Reply {
        Reply(Self.self, try decodeResult(payload))
    }
}

/// Only the tests compare replies: by method, then by result.
extension Reply: Equatable {
    public static func == (lhs: Reply, rhs: Reply) -> Bool {
        lhs.method.name == rhs.method.name && lhs.result.isEqual(to: rhs.result)
    }
}
