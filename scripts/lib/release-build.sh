# How the shipped binaries are built, for scripts/install, bench, stress and order-symbols (source
# it from bash, in the repository's root):
#
#   source scripts/lib/release-build.sh
#   release_build SCRATCH_PATH ligasd ligas-client    # builds them
#   bin=$(release_bin_path SCRATCH_PATH)               # where they are
#
# Release, with the Swift runtime linked in statically, and every Swift function in a section of
# its own, so that the linker can put the code ligasd's start-up and first requests run first,
# together (Package.swift gives it Sources/ligasd/ligasd.order, which scripts/order-symbols
# writes). The kernel maps a binary's code in blocks of 64 KiB and more (the page cache's large
# folios), not page by page: in link order, the few thousand functions a start runs were spread
# over ~130 of those blocks, 8.3 MiB of ligasd's idle resident memory; ordered, 3.3 MiB.
#
# And without access to concrete type metadata by mangled name: by default, code that needs the
# metadata of a specialised generic type (a `Dictionary<String, String>`, an `AsyncStream<Int>`)
# has the runtime demangle its name the first time, and the runtime then checks the type's
# generic requirements (`String: Hashable`) by scanning every protocol conformance in the binary
# (~7,500 in ligasd), once per type and protocol. With the flag the compiler calls the type's
# metadata accessor with the witness tables it already knows. callgrind, a start up to the first
# reply: 22.6 -> 13.9 million instructions; `ligas-client teams`: 18.3 -> 12.2 million.
#
# The flags are given here, not in Package.swift, because they must reach the dependencies'
# modules too, and a package can only set flags for its own.
RELEASE_BUILD_FLAGS=(-c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)

# And libstdc++, which the static Swift runtime needs, linked in too, from GCC's archive (Debian's
# libstdc++-N-dev, which linking needs anyway): the linker takes only the few objects the runtime
# uses, where the shared library was another 1.1 MiB mapped in each process, and another few
# thousand symbols to bind at every start. The link asks for `-lstdc++` in several places, and
# clang's search path finds the shared library first, so a directory holding only the archive is
# searched before it. The archive is the one the toolchain's own clang (the linker driver) picks.
static_libstdcxx=$("$(dirname "$(command -v swiftc)")/clang" -print-file-name=libstdc++.a 2>/dev/null || true)
if [ -f "$static_libstdcxx" ]; then
    mkdir -p .build-static-libstdc++
    ln -sfn "$static_libstdcxx" .build-static-libstdc++/libstdc++.a
    RELEASE_BUILD_FLAGS+=(-Xlinker -L -Xlinker "$PWD/.build-static-libstdc++")
else
    echo "release-build.sh: no libstdc++.a (install libstdc++-dev): the binaries will load libstdc++.so" >&2
fi
unset static_libstdcxx

# The build does not know that Sources/ligasd/ligasd.order and ligasd.lds are inputs of ligasd's
# link: a ligasd in BIN_DIR older than either is removed, so that the next build links it again.
#   forget_stale_ligasd BIN_DIR
forget_stale_ligasd() {
    local input
    for input in Sources/ligasd/ligasd.order Sources/ligasd/ligasd.lds; do
        if [ -e "$1/ligasd" ] && [ "$input" -nt "$1/ligasd" ]; then rm -f "$1/ligasd"; fi
    done
}

#   release_bin_path SCRATCH_PATH
release_bin_path() {
    swift build --scratch-path "$1" "${RELEASE_BUILD_FLAGS[@]}" --show-bin-path
}

# Builds each PRODUCT with RELEASE_BUILD_FLAGS, ligasd linked again if its layout files changed.
#   release_build SCRATCH_PATH PRODUCT...
release_build() {
    local scratch="$1" product
    shift
    forget_stale_ligasd "$(release_bin_path "$scratch")" || return 1
    for product in "$@"; do
        swift build --scratch-path "$scratch" "${RELEASE_BUILD_FLAGS[@]}" --product "$product" || return 1
    done
}
