import FoundationEssentials
import LigasDomain
import Synchronization

/// An `HTTPClient` made on its first request. AsyncHTTPClient starts NIO's event loop threads
/// when it is created, and a daemon serving files (the bundled sample data, a `file://` remote)
/// never sends a request over the network: it should not pay for them at start, in time or in
/// memory.
public final class LazyHTTPClient: HTTPClient {
    private enum State {
        case notYet, made(AsyncHTTPClientAdapter), shutDown
    }

    private let state = Mutex(State.notYet)
    private let make: @Sendable () -> AsyncHTTPClientAdapter

    public init(make: @escaping @Sendable () -> AsyncHTTPClientAdapter = { AsyncHTTPClientAdapter() }) {
        self.make = make
    }

    /// Whether a request has made the client (for tests and diagnostics).
    public var isMade: Bool {
        state.withLock { if case .made = $0 { true } else { false } }
    }

    public func get(_ url: URL, headers: [String: String], maxBodyBytes: Int) async throws -> (HTTPResponseHead, HTTPBody) {
        let client = try state.withLock { state -> AsyncHTTPClientAdapter in
            switch state {
            case .made(let client): return client
            case .notYet:
                let client = make()
                state = .made(client)
                return client
            case .shutDown: throw LigasError.connectivity("the HTTP client is shut down: ligasd is stopping")
            }
        }
        return try await client.get(url, headers: headers, maxBodyBytes: maxBodyBytes)
    }

    /// Shuts the client down if a request made it; no request may come after.
    public func shutdown() async throws {
        let made = state.withLock { state -> AsyncHTTPClientAdapter? in
            defer { state = .shutDown }
            if case .made(let client) = state { return client } else { return nil }
        }
        try await made?.shutdown()
    }
}
