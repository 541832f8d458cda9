# How the shipped binaries are built, for scripts/install and scripts/bench (source it from bash):
#
#   source scripts/lib/release-build.sh
#   swift build "${RELEASE_BUILD_FLAGS[@]}" --product ligasd
#
# Release, with the Swift runtime linked in statically, and every Swift function in a section of
# its own, so that the linker can put the code ligasd's start-up and first requests run first,
# together (Package.swift gives it Sources/ligasd/ligasd.order, which scripts/order-symbols
# writes). The kernel maps a binary's code in blocks of 64 KiB and more (the page cache's large
# folios), not page by page: in link order, the few thousand functions a start runs were spread
# over ~130 of those blocks, 8.3 MiB of ligasd's idle resident memory; ordered, 3.3 MiB.
# The flag is given here, not in Package.swift, because it must reach the dependencies' modules
# too, and a package can only set flags for its own.
RELEASE_BUILD_FLAGS=(-c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections)

# The build does not know that Sources/ligasd/ligasd.order and ligasd.lds are inputs of ligasd's
# link: a ligasd in BIN_DIR older than either is removed, so that the next build links it again.
#   forget_stale_ligasd BIN_DIR
forget_stale_ligasd() {
    local input
    for input in Sources/ligasd/ligasd.order Sources/ligasd/ligasd.lds; do
        if [ -e "$1/ligasd" ] && [ "$input" -nt "$1/ligasd" ]; then rm -f "$1/ligasd"; fi
    done
}
