import Glibc

/// Where ligasd's main thread waits while the daemon runs on the concurrency pool and Dispatch's
/// threads (every path of the daemon ends in `exit`).
///
/// Not an `async` main: that hands the main thread to `dispatch_main()`, whose `pthread_exit`
/// unwinds the thread's stack through libgcc before parking it, and the unwinder's searches of the
/// unwind tables (`.eh_frame_hdr`, `.eh_frame`, `.gcc_except_table`) left ~0.5 MiB of them in
/// ligasd's idle memory, for nothing (`perf probe` on `_Unwind_Find_FDE`; `/proc/PID/pagemap`).
///
/// Nothing serves the main queue or the main actor any more (`dispatch_main()` handed the main
/// queue to Dispatch's pool): ligasd and its dependencies use neither, and must not start to.
enum MainThread {
    /// Sleeps for good with every signal unblocked, as `dispatch_main()` left the thread (in
    /// `sigsuspend` with an empty mask): signals keep their default actions on it (the watchdog's
    /// SIGABRT still aborts a hung ligasd), and SIGTERM and SIGINT, which Dispatch's signal sources
    /// catch, are passed on to them by Dispatch's handler.
    static func park() -> Never {
        var none = sigset_t()
        sigemptyset(&none)
        while true { sigsuspend(&none) }
    }
}
