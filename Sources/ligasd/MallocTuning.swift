import CMalloc

/// Image streams allocate tens of MiB at a time. After such a buffer is freed, glibc raises its
/// mmap threshold, so the next ones come from heap arenas that never shrink, and RSS stays at its
/// peak (hundreds of MiB after a few 20 MiB images). A fixed threshold keeps big buffers in mmap,
/// returned to the system on free; two arenas keep per-thread heaps from multiplying.
enum MallocTuning {
    static func apply() {
        mallopt(M_MMAP_THRESHOLD, 256 << 10)
        mallopt(M_ARENA_MAX, 2)
    }
}
