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

/// An executor on a queue of its own (serial), for work that may block its thread and must leave
/// the cooperative pool to the rest of the process (see `offThePool`): as a serial executor, an
/// actor that must block runs there; as a task executor (`withTaskExecutorPreference`), async code
/// that may block does (a LigasClient caller reading its own answer, for up to its budget, while
/// an in-process server's request tasks need the pool).
public final class BlockingQueueExecutor: SerialExecutor, TaskExecutor {
    private let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(isolatedTo: self.asUnownedSerialExecutor(), taskExecutor: self.asUnownedTaskExecutor()) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
