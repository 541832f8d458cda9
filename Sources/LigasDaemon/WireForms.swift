import Synchronization

/// The wire form of the last cached list each call was answered with, so that a list answered
/// again from the engine's memory is not mapped to wire values again. The engine hands out a
/// remembered feed as the same array (the same storage) until the feed is replaced; the same
/// storage is the same list, so its wire form is the one mapped before. Answering the same
/// wire array also lets `EncodedAnswers` find the remembered encoding by the array's identity
/// (`==` on arrays checks storage first), where a fresh mapping made it compare every team,
/// field by field: mapping and comparing were about a fifth of ligasd's CPU for a cached
/// `teams` answer of 24 teams (`perf record` over 16 clients).
///
/// An entry holds its list, so that list's storage stays allocated, and its address cannot come
/// back for another list while the entry is here. It is held until its call is answered with
/// another list (or the table starts afresh): at most `capacity` lists per method.
final class WireForms<Key: Hashable & Sendable, Domain: Sendable, Wire: Sendable>: Sendable {
    private struct Entry: Sendable {
        let domain: [Domain]
        let wire: [Wire]
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let transform: @Sendable (Domain) -> Wire
    /// More calls than any configuration has leagues and teams; past it, start afresh.
    private static var capacity: Int { 512 }

    init(_ transform: @escaping @Sendable (Domain) -> Wire) {
        self.transform = transform
    }

    /// `list` mapped to wire values: the remembered wire form if `list` is the list remembered
    /// for `key`, else a new one, remembered in its place.
    func wire(_ list: [Domain], for key: Key) -> [Wire] {
        if let entry = entries.withLock({ $0[key] }), Self.sameStorage(entry.domain, list) { return entry.wire }
        let wire = list.map(transform)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(domain: list, wire: wire)
        }
        return wire
    }

    /// Whether two arrays share their storage (then they are equal). Empty arrays all share one,
    /// and their wire form is empty too.
    private static func sameStorage(_ a: [Domain], _ b: [Domain]) -> Bool {
        a.count == b.count
            && a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }
}
