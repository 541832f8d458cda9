import LigasProtocol

/// Shorthands for the tests, which build many requests (a client builds one `Call`).
extension Request {
    init<M: RPCMethod>(_ method: M.Type, _ arguments: M.Arguments, deadlineMs: UInt32? = nil, cache: CachePolicy = .default) {
        self.init(Call(method, arguments), deadlineMs: deadlineMs, cache: cache)
    }

    init<M: RPCMethod>(_ method: M.Type, deadlineMs: UInt32? = nil, cache: CachePolicy = .default) where M.Arguments == NoArguments {
        self.init(Call(method), deadlineMs: deadlineMs, cache: cache)
    }
}
