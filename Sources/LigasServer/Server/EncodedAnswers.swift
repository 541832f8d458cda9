import LigasProtocol
import Synchronization

/// The last encoded answer of each cache-first call (method and arguments), so that answering
/// the same cached data again costs a comparison, not an encoding: a cached `teams` of 24 teams
/// is asked far more often than it changes, and encoding it was most of the CPU such an answer
/// took. A result equal to the remembered one has the same bytes (the encoding is
/// deterministic); any other result is encoded and remembered in its place.
final class EncodedAnswers: Sendable {
    private struct Entry: Sendable {
        let result: any WireValue
        let payload: [UInt8]
    }

    private let entries = Mutex<[Call: Entry]>([:])
    /// More calls than any configuration has leagues and teams; past it, start afresh.
    private static let capacity = 512

    /// The payload of `result`, the answer to `method` with `arguments`.
    func payload<M: RPCMethod>(of result: M.Result, answering method: M.Type, _ arguments: M.Arguments) throws -> [UInt8] {
        let key = Call(method, arguments)
        if let entry = entries.withLock({ $0[key] }), AnyHashable(entry.result) == AnyHashable(result) { return entry.payload }
        let payload = try CBOREncoder().encode(result)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(result: result, payload: payload)
        }
        return payload
    }
}
