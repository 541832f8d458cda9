import CMalloc

/// Image downloads allocate tens of MiB at a time. After such a buffer is freed, glibc raises its
/// mmap threshold, so the next ones come from heap arenas that never shrink, and RSS stays at its
/// peak (hundreds of MiB after a few 20 MiB images). A fixed threshold keeps big buffers in mmap,
/// returned to the system on free; one arena keeps per-thread heaps from multiplying.
///
/// The threshold is above the 256 KiB piece a stream reads from the cache at a time: pieces come
/// from the heap and its freed chunks are reused, where an mmap per piece cost 64 page faults
/// and 256 KiB of zeroing, most of a stream's CPU.
enum MallocTuning {
    static func apply() {
        mallopt(M_MMAP_THRESHOLD, 1 << 20)
        // And freed memory at the top of the heap is kept up to a few pieces' worth, not given
        // back (and faulted in again) after every piece.
        mallopt(M_TRIM_THRESHOLD, 4 << 20)
        // One heap for every thread: the daemon's few threads (the connections' loop, the
        // cooperative pool) take turns at its lock only when glibc's per-thread cache cannot
        // serve them. A second arena held ~1.3 MiB more once the cache was warm (`ligas-bench
        // memory`, alternating runs).
        mallopt(M_ARENA_MAX, 1)
    }
}
