import Glibc

/// Where ligasd's main thread waits while the daemon runs on the concurrency pool and Dispatch's
/// threads (every path of the daemon ends in `exit`).
///
/// Not an `async` main: that ends the main thread in `dispatch_main()`, whose `pthread_exit`
/// unwinds the thread's stack through libgcc, and the unwinder's searches of the unwind tables
/// (`.eh_frame_hdr`, `.eh_frame`, `.gcc_except_table`) left ~0.5 MiB of them in ligasd's idle
/// memory, for nothing (`perf probe` on `_Unwind_Find_FDE`; `/proc/PID/pagemap`).
enum MainThread {
    /// Blocks the asynchronous signals, as every one of Dispatch's threads does (and as
    /// `dispatch_main()` does before it exits), so that SIGTERM and SIGINT stay pending until
    /// ligasd's Dispatch signal sources read them; then sleeps for good.
    static func park() -> Never {
        var blocked = sigset_t()
        sigfillset(&blocked)
        // The ones a fault raises in the thread that caused it, left out as in Dispatch's mask.
        for synchronous in [SIGILL, SIGTRAP, SIGFPE, SIGBUS, SIGSEGV, SIGSYS, SIGPIPE, SIGPROF] {
            sigdelset(&blocked, synchronous)
        }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        while true { pause() }
    }
}
