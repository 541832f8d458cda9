import LigasProtocol
import Synchronization

/// The last encoded answer of each cache-first call of one method (by its arguments), so that
/// answering the same cached data again costs a comparison, not an encoding: a cached `teams` of
/// 24 teams is asked far more often than it changes, and encoding it was most of the CPU such an
/// answer took. A result equal to the remembered one has the same bytes (the encoding is
/// deterministic); any other result is encoded and remembered in its place.
///
/// One per method (see `MethodRouter`), so that arguments and results are compared as the types
/// they are: through `AnyHashable`, boxing them and looking up the boxes' metadata was a tenth
/// of a cached answer's instructions (callgrind).
final class EncodedAnswers<M: RPCMethod>: Sendable {
    private struct Entry: Sendable {
        let result: M.Result
        let payload: [UInt8]
    }

    private let entries = Mutex<[M.Arguments: Entry]>([:])
    /// More calls of one method than any configuration has leagues or teams; past it, start afresh.
    private static var capacity: Int { 512 }

    /// The payload of `result`, the answer to the method with `arguments`.
    func payload(of result: M.Result, answering arguments: M.Arguments) throws -> [UInt8] {
        if let entry = entries.withLock({ $0[arguments] }), entry.result == result { return entry.payload }
        let payload = try CBOREncoder().encode(result)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[arguments] = Entry(result: result, payload: payload)
        }
        return payload
    }
}
