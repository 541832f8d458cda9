// glibc's malloc tuning (mallopt), for ligasd's process set-up (see Sources/ligasd/MallocTuning.swift).
// Swift's Glibc module does not export <malloc.h>.
#include <malloc.h>
