import CAuxv
import Glibc

/// ligasd's own code and read-only metadata, unmapped when it is idle (by `QuietMemoryRelease`):
/// start-up runs code that serving never runs again (opening and validating the cache, the
/// settings, the service group), and the kernel maps a binary's cached pages in blocks of 64 KiB
/// around each one touched, so after a start ~4 MiB of ligasd's code and ~0.4 MiB of its Swift
/// metadata count in its RSS (`/proc/PID/pagemap`), most of it never used again. The pages stay
/// in the page cache: what the next request runs is mapped back by a minor fault, without
/// reading the disk.
///
/// Only segments of the executable that nothing ever writes are released (`PT_LOAD` without
/// `PF_W`): `MADV_DONTNEED` on a written page of a private mapping would throw the write away
/// (relocated pointers, variables), so the relocated read-only data (`RELRO`, in a writable
/// segment until relocated) and everything writable (`.rodata` too, which this link puts in the
/// writable segment) are left alone. One exception to "never written": a debugger's breakpoint,
/// which it would lose.
enum IdleCodePages {
    /// The executable's never-written segments, as whole pages inside them.
    static let ranges: [Range<UInt>] = mainExecutableSegments().flatMap { segments in
        unwritablePages(of: segments.loads, base: segments.base, pageSize: UInt(sysconf(Int32(_SC_PAGESIZE))))
    } ?? []

    /// Unmaps them (`MADV_DONTNEED`); they are mapped again as they run.
    static func release() {
        for range in ranges {
            madvise(UnsafeMutableRawPointer(bitPattern: range.lowerBound), Int(range.upperBound - range.lowerBound), MADV_DONTNEED)
        }
    }

    struct Load: Equatable {
        let virtualAddress: UInt
        let memorySize: UInt
        let writable: Bool
    }

    /// The pages wholly inside the segments that are not writable, at `base` (rounded inwards: a
    /// page shared with another segment is left alone).
    static func unwritablePages(of loads: [Load], base: UInt, pageSize: UInt) -> [Range<UInt>] {
        loads.filter { !$0.writable && $0.memorySize > 0 }.compactMap { load in
            let start = base + load.virtualAddress
            let lower = (start + pageSize - 1) / pageSize * pageSize
            let upper = (start + load.memorySize) / pageSize * pageSize
            return lower < upper ? lower..<upper : nil
        }
    }

    /// The executable's load address and `PT_LOAD` segments, from the program headers the kernel
    /// mapped for it (`AT_PHDR`, `AT_PHNUM`); the load address is where its own `PT_PHDR` entry
    /// says they would be at address 0.
    private static func mainExecutableSegments() -> (base: UInt, loads: [Load])? {
        let count = Int(getauxval(UInt(AT_PHNUM)))
        guard count > 0, let first = UnsafePointer<Elf64_Phdr>(bitPattern: UInt(getauxval(UInt(AT_PHDR)))) else { return nil }
        let headers = UnsafeBufferPointer(start: first, count: count)
        guard let own = headers.first(where: { $0.p_type == PT_PHDR }) else { return nil }
        let base = UInt(bitPattern: first) &- UInt(own.p_vaddr)
        return (base, headers.filter { $0.p_type == PT_LOAD }.map {
            Load(virtualAddress: UInt($0.p_vaddr), memorySize: UInt($0.p_memsz), writable: $0.p_flags & UInt32(PF_W) != 0)
        })
    }
}
