import CMalloc
import Dispatch
import LigasComposition
import Synchronization

/// Gives memory back to the system when ligasd has no client: the pages SQLite read (to open and
/// validate the cache at start, or for the last requests), then the heap's free pages
/// (`malloc_trim`). A socket-activated ligasd may wait long for its first request, and a local
/// daemon spends most of its life between clients; what they need is read again when they come.
/// At start: ~1 MiB of idle RSS (`ligas-bench memory`, alternating runs: 13.4–13.7 -> 12.5–12.7).
/// Once its last client has gone, also ligasd's own code and read-only data pages
/// (`IdleCodePages`): idle at start 11.8–12.5 -> 9.2–9.7 MiB, warm 13.0–14.1 -> 11.4–12.2 MiB
/// (the bench's idle-RSS figures, freshly copied binaries). Not at start, before serving: the first
/// request would map back the code start-up shares with it (~0.4 ms more to the first reply).
/// Best effort: work that outlives its client (a remote fetch finishing after the cache
/// answered) may take memory again after a release, until the next one.
final class QuietMemoryRelease: Sendable {
    private let opened: OpenedEngine
    /// Off the server's queue (the writer connection may be in the middle of a long write), on
    /// Dispatch's shared pool rather than a thread of its own.
    private let queue = DispatchQueue(label: "ligasd.memory-release", target: .global(qos: .utility))
    /// A release asked for while one waits to run is folded into it.
    private let pending = Atomic(false)

    init(_ opened: OpenedEngine) {
        self.opened = opened
    }

    /// Now, on the caller's thread (at start, before serving): SQLite's pages and the heap's.
    func releaseNow() {
        opened.releaseCacheMemory()
        malloc_trim(0)
    }

    /// Soon, off the caller's thread: for the server's queue, when its last connection closes.
    /// The code pages too.
    func releaseSoon() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            pending.store(false, ordering: .releasing)
            releaseNow()
            IdleCodePages.release()
        }
    }
}
