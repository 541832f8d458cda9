import Dispatch

/// Runs blocking work (a `waitpid`, a read until EOF, a polling loop with `usleep`) on a thread of
/// its own, never on the cooperative pool or `DispatchQueue.global()`.
///
/// Why: on Linux both are only as wide as the machine has cores (two here). A test that blocks
/// one of their threads for the life of a child process takes half of all the concurrency the
/// test run has; two such tests at once stall every other test, and every `Task.sleep`, for good.
/// A queue of its own is served by Dispatch's overcommit pool, which starts a thread for it.
public func offThePool<T: Sendable>(_ label: String = "ligas-test-blocking", _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DispatchQueue(label: label).async { continuation.resume(returning: body()) }
    }
}

/// A serial executor on a queue of its own: an actor that must block (see `offThePool`) runs there.
public final class BlockingActorExecutor: SerialExecutor {
    private let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}

/// A task executor on a queue of its own: async code that may block its thread (a LigasClient
/// caller reading its own answer, for up to its budget) runs there, with
/// `withTaskExecutorPreference`, and leaves the cooperative pool to the rest of the process (an
/// in-process server's request tasks above all).
public final class BlockingTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
