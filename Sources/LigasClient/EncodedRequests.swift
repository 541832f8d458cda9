import LigasProtocol
import Synchronization

/// The encoded payloads of the requests a connection sent: a request is sent again with the bytes
/// it had (its id is in the frame's header, not in them). Encoding even a small request through
/// `Codable` took about a third of a cached call's instructions in the client (callgrind), once
/// the answer was no longer decoded again (`DecodedAnswers`).
final class EncodedRequests: Sendable {
    private let entries = Mutex<[Request: [UInt8]]>([:])
    /// More different requests than a client usually makes; past it, start afresh.
    static let capacity = 64

    func payload(of request: Request) throws -> [UInt8] {
        if let payload = entries.withLock({ $0[request] }) { return payload }
        let payload = try CBOREncoder().encode(request)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[request] = payload
        }
        return payload
    }
}
