import Glibc

/// A mutex with `NSLock`'s shape (`lock`, `unlock`, `withLock`) over pthreads. `NSLock` lives in
/// Foundation proper: a single use of it links all of Foundation and ICU's 34 MB of data into a
/// statically linked binary, where FoundationEssentials is all the daemon and the client need.
public final class MutexLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() {
        pthread_mutex_lock(mutex)
    }

    public func unlock() {
        pthread_mutex_unlock(mutex)
    }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
