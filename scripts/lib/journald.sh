# A journald for scripts that run ligasd as a user's machine does, where journald always runs
# (scripts/bench's cold start under systemd --user). Without one, the user manager cannot connect
# a service's stdout to /run/systemd/journal/stdout, and at every start it writes that failure to
# /dev/console before exec'ing the service (4-10 ms of a start here with a build running, none
# when idle; README, the sixteenth stop). Source it from bash:
#
#   source scripts/lib/journald.sh
#   journald_start      # uses a running journald, or starts a standalone one (see
#                       # ../shared/notes/systemd-in-tests.md)
#   journald_stop       # stops only the one journald_start started, and removes the socket
#                       # files it created
#
# Tests do the same from Swift (Tests/LigasTestSupport/Journald.swift).

_jd_dir=/run/systemd/journal

journald_start() {
    _jd_pid=""
    if [ -S "$_jd_dir/socket" ] && pgrep -x systemd-journal >/dev/null; then return 0; fi
    _jd_before="$(ls -A "$_jd_dir" 2>/dev/null || echo '<none>')"
    mkdir -p "$_jd_dir"
    /lib/systemd/systemd-journald </dev/null >/dev/null 2>&1 &
    _jd_pid=$!
    local waited=0
    until [ -S "$_jd_dir/socket" ] && [ -S "$_jd_dir/stdout" ]; do
        if ! kill -0 "$_jd_pid" 2>/dev/null || [ "$waited" -ge 100 ]; then
            echo "journald_start: systemd-journald did not open its sockets" >&2
            journald_stop
            return 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
}

journald_stop() {
    [ -n "${_jd_pid:-}" ] || return 0
    kill -TERM "$_jd_pid" 2>/dev/null || true
    wait "$_jd_pid" 2>/dev/null || true
    _jd_pid=""
    # A stopped journald leaves its sockets behind: put the directory back as it was found.
    if [ "$_jd_before" = '<none>' ]; then
        rm -rf "$_jd_dir"
    else
        local entry
        for entry in $(ls -A "$_jd_dir" 2>/dev/null); do
            printf '%s\n' "$_jd_before" | grep -qx "$entry" || rm -rf "${_jd_dir:?}/$entry"
        done
    fi
}
