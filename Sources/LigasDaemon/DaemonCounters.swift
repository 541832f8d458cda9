import LigasDomain
import Synchronization

/// Cache hits and misses and remote failures since start, for `status`.
final class DaemonCounters: Sendable {
    struct Snapshot: Sendable {
        var cacheHits: UInt64 = 0
        var cacheMisses: UInt64 = 0
        var remoteFailures: UInt64 = 0
    }

    private let state = Mutex(Snapshot())

    var snapshot: Snapshot { state.withLock { $0 } }

    func record(_ origin: Origin) {
        state.withLock { origin == .cache ? ($0.cacheHits += 1) : ($0.cacheMisses += 1) }
    }

    func record(_ error: any Error) {
        switch error {
        case LigasError.connectivity, LigasError.invalidData:
            state.withLock { $0.remoteFailures += 1 }
        default:
            break
        }
    }
}
