# The shipped binaries' size as scripts/bench reports it: stripped copies (what `strip` leaves of
# them; the build keeps symbols for backtraces), in MB of 10^6 bytes. Source it from bash:
#
#   source scripts/lib/binary-size.sh
#   binary_size_result BINDIR     # prints: RESULT ligasd binary_size client_mb=… daemon_mb=…

binary_size_result() {
    local bindir="$1" work
    work="$(mktemp -d)"
    strip -o "$work/ligas-client" "$bindir/ligas-client"
    strip -o "$work/ligasd" "$bindir/ligasd"
    echo "RESULT ligasd binary_size client_mb=$(_megabytes "$work/ligas-client") daemon_mb=$(_megabytes "$work/ligasd")"
    rm -rf "$work"
}

_megabytes() {
    awk -v bytes="$(stat -c %s "$1")" 'BEGIN { printf "%.2f", bytes / 1e6 }'
}
