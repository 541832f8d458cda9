# A journald for scripts that run ligasd as a user's machine does, where journald always runs
# (scripts/bench's cold start under systemd --user). Without one, the user manager cannot connect
# a service's stdout to /run/systemd/journal/stdout, and at every start it writes that failure to
# /dev/console before exec'ing the service (4-10 ms of a start here with a build running, none
# when idle; README, the sixteenth stop). Source it from bash:
#
#   source scripts/lib/journald.sh
#   journald_start      # uses a journald that accepts entries, or starts a standalone one (see
#                       # ../shared/notes/systemd-in-tests.md)
#   journald_stop       # stops only the one journald_start started, and puts /run/systemd as it
#                       # was found (a stopped journald leaves its sockets behind)
#
# A journald that someone else started (a test run) may go away under the script: do not run the
# bench beside the tests. Tests do the same from Swift (Tests/LigasTestSupport/Journald.swift).

_jd_dir=/run/systemd/journal

# Whether a journald is there, not only its socket files: both sockets accept a connection.
_jd_accepting() {
    python3 -c '
import socket, sys
for path, kind in ((sys.argv[1] + "/socket", socket.SOCK_DGRAM), (sys.argv[1] + "/stdout", socket.SOCK_STREAM)):
    socket.socket(socket.AF_UNIX, kind).connect(path)
' "$_jd_dir" 2>/dev/null
}

journald_start() {
    [ -z "${_jd_pid:-}" ] || return 0
    _jd_accepting && return 0
    _jd_had_run_systemd=""
    [ -d /run/systemd ] && _jd_had_run_systemd=1
    _jd_before="$(ls -A "$_jd_dir" 2>/dev/null || echo '<none>')"
    mkdir -p "$_jd_dir"
    env -u NOTIFY_SOCKET -u LISTEN_FDS -u LISTEN_PID -u LISTEN_FDNAMES -u WATCHDOG_USEC -u WATCHDOG_PID \
        /lib/systemd/systemd-journald </dev/null >/dev/null 2>&1 &
    _jd_pid=$!
    local waited=0
    until _jd_accepting; do
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
    if [ "$_jd_before" = '<none>' ]; then
        rm -rf "$_jd_dir"
        [ -n "$_jd_had_run_systemd" ] || rmdir /run/systemd 2>/dev/null || true
    else
        local entry
        for entry in $(ls -A "$_jd_dir" 2>/dev/null); do
            printf '%s\n' "$_jd_before" | grep -qxF "$entry" || rm -rf "${_jd_dir:?}/$entry"
        done
    fi
}
