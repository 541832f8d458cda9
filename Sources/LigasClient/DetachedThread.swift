import Glibc

/// A POSIX thread of its own for `body`, detached (nobody joins it). Foundation's `Thread` would
/// do the same, but one use of it links all of Foundation and ICU into ligas-client.
enum DetachedThread {
    /// `name` shows in `top -H` and debuggers; Linux keeps its first 15 bytes.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { work in
            let work = Unmanaged<Work>.fromOpaque(work!).takeRetainedValue()
            work.nameThisThread()
            work.body()
            return nil
        }, work)
        guard created == 0 else { fatalError("cannot start the thread \(name): \(String(cString: strerror(created)))") }
        pthread_detach(thread)
    }

    private final class Work {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }

        /// Through procfs: Swift's Glibc module leaves `pthread_setname_np` out (it is a GNU extension).
        func nameThisThread() {
            let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            let bytes = Array(name.utf8.prefix(15))
            _ = write(fd, bytes, bytes.count)
            close(fd)
        }
    }
}
