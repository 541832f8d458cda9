// glibc's <sys/auxv.h> (getauxval: where the kernel put the executable's program headers) and
// <elf.h> (their layout), which Swift's Glibc module leaves out: for the daemon's IdleCodePages
// (Sources/LigasDaemon/IdleCodePages.swift).
#include <elf.h>
#include <sys/auxv.h>
