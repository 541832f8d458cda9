import Foundation

/// Runs blocking work (socket reads with poll, sleeps between bytes) on a thread of its own,
/// never on the Swift concurrency pool, which has only as many threads as cores.
func onThread<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.name = name
        thread.start()
    }
}
