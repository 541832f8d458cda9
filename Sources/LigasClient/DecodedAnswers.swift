import Glibc
import LigasProtocol
import Synchronization

/// The last few answers of each method with their decoded values: an answer whose bytes are
/// those of one of them is that value, and is not decoded again. A tool or a widget that asks the
/// same question again and again mostly gets the same answer, and decoding it was most of the
/// client's CPU for a cached call (24 teams: ~150k instructions, callgrind), against a `memcmp`.
final class DecodedAnswers: Sendable {
    private struct Entry: Sendable {
        let payload: [UInt8]
        let value: any Sendable
    }

    /// Per method name, the most recently used first.
    private let entries = Mutex<[String: [Entry]]>([:])
    /// Answers remembered per method: a few leagues' or teams' worth.
    static let perMethod = 4
    /// Larger answers are decoded every time: remembering them would hold their bytes twice.
    static let largestRemembered = 64 << 10
    /// Answers decoded (not found among the remembered ones), for tests.
    private let decodes = Atomic<Int>(0)
    var decodeCount: Int { decodes.load(ordering: .relaxed) }

    /// `payload` decoded as `M`'s result.
    func value<M: RPCMethod>(of payload: [UInt8], answering method: M.Type) throws -> M.Result {
        let remembers = payload.count <= Self.largestRemembered
        if remembers {
            // Compared outside the lock: the list is a copy (of references to the payloads).
            let remembered = entries.withLock { $0[M.name] ?? [] }
            if let index = remembered.firstIndex(where: { Self.same($0.payload, payload) }),
               let value = remembered[index].value as? M.Result {
                if index > 0 { remember(remembered[index], for: M.name) }
                return value
            }
        }
        decodes.add(1, ordering: .relaxed)
        let value = try M.decodeResult(payload)
        if remembers { remember(Entry(payload: payload, value: value), for: M.name) }
        return value
    }

    /// Puts `entry` first in its method's list (once, even if another caller decoded the same
    /// bytes meanwhile), and forgets the least recently used past `perMethod`.
    private func remember(_ entry: Entry, for method: String) {
        entries.withLock { entries in
            var list = entries[method, default: []]
            list.removeAll { Self.same($0.payload, entry.payload) }
            list.insert(entry, at: 0)
            if list.count > Self.perMethod { list.removeLast(list.count - Self.perMethod) }
            entries[method] = list
        }
    }

    private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count
            && (a.isEmpty || a.withUnsafeBytes { a in b.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } })
    }
}
