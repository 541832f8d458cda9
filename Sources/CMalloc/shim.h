// glibc's malloc tuning (mallopt, malloc_trim): ligasd's process set-up (Sources/ligasd/MallocTuning.swift) and
// the daemon's trims when it has no client (Sources/LigasDaemon/QuietMemoryRelease.swift).
// Swift's Glibc module does not export <malloc.h>.
#include <malloc.h>
