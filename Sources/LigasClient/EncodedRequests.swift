import LigasProtocol

/// The encoded payloads of the small requests a connection sent: a request is sent again with the
/// bytes it had (its id is in the frame's header, not in them). Encoding even a small request
/// through `Codable` took about a third of a cached call's instructions in the client (callgrind),
/// once the answer was no longer decoded again (`DecodedAnswers`). Owned by one connection and
/// used on its queue.
///
/// Requests are told apart as Swift compares them, strings by canonical equivalence: arguments
/// that differ only in their Unicode normalization are sent as the first of them was encoded.
struct EncodedRequests {
    private var entries: [Request: [UInt8]] = [:]
    /// More different requests than a client usually makes; past it, start afresh.
    static let capacity = 64
    /// Larger requests are encoded every time (none of the methods' arguments come near it).
    static let largestRemembered = 4 << 10

    mutating func payload(of request: Request) throws -> [UInt8] {
        if let payload = entries[request] { return payload }
        let payload = try CBOREncoder().encode(request)
        if payload.count <= Self.largestRemembered {
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[request] = payload
        }
        return payload
    }
}
