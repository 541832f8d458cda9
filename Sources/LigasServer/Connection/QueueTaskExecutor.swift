import Dispatch

/// Runs a connection's request tasks on the connection's own serial queue.
///
/// A request read on the queue then starts on the same thread, right after the read handler,
/// instead of waking a thread of Swift's global pool; and its reply, posted back to the queue,
/// needs no wake-up either. On a small machine those wake-ups are most of a round trip. The
/// handler still suspends freely, so one slow request does not hold the queue.
final class QueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
