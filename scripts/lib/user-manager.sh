# A real `systemd --user` manager running ligasd's user units, for the stress suite and the
# benchmark, on machines where systemd is not PID 1 (see ../shared/notes/systemd-in-tests.md).
# Source it from bash:
#
#   source scripts/lib/user-manager.sh
#   user_manager_start WORKDIR BINDIR ["Environment=LIGASD_IDLE_EXIT=0.3" ...]
#   user_manager_systemctl restart ligasd.service
#   user_manager_stop
#
# user_manager_start installs systemd/user/ligasd.{socket,service} (with @bindir@ replaced by
# BINDIR) and a drop-in (no start limit, the bundled sample data as remote, log to stderr
# appended to $UM_LOG, plus the extra [Service] lines given), starts the manager, daemon-reloads
# and starts ligasd.socket. It exports:
#   UM_SOCKET     ligasd's socket (connecting to it starts ligasd)
#   UM_RUNTIME    the manager's XDG_RUNTIME_DIR
#   UM_LOG        every ligasd instance's stderr, appended
#   UM_SYSTEMCTL  a script running `systemctl --user` against this manager (for other programs)
#   UM_MANAGER_PID
# Call it from the shell that will call user_manager_stop (not in a subshell): the manager is
# this shell's child. Only one manager per shell at a time.

_um_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
_um_marker=/run/systemd/system

user_manager_start() {
    local workdir="$1" bindir="$2"
    shift 2
    [ -x "$bindir/ligasd" ] || { echo "user_manager_start: no ligasd in $bindir" >&2; return 1; }
    mkdir -p "$workdir"
    workdir="$(cd "$workdir" && pwd)"
    export UM_WORKDIR="$workdir"
    export UM_RUNTIME="$workdir/runtime"
    export UM_LOG="$workdir/ligasd.log"
    export UM_SOCKET="$UM_RUNTIME/ligasd.sock"
    export UM_SYSTEMCTL="$workdir/systemctl"
    local config="$workdir/config" home="$workdir/home"
    local units="$config/systemd/user"
    mkdir -p "$home" "$units/ligasd.service.d"
    mkdir -p -m 700 "$UM_RUNTIME"
    : >"$UM_LOG"

    sed "s|@bindir@|$bindir|g" "$_um_root/systemd/user/ligasd.service" >"$units/ligasd.service"
    cp "$_um_root/systemd/user/ligasd.socket" "$units/ligasd.socket"
    {
        # Stress runs start ligasd far more often than real use: lift systemd's start limit.
        printf '%s\n' "[Unit]" "StartLimitIntervalSec=0" "[Service]" \
            "Environment=LIGASD_REMOTE=$_um_root/Sources/LigasSampleData/SampleData" \
            "Environment=LIGASD_LOG_TARGET=stderr" "StandardError=append:$UM_LOG"
        if [ $# -gt 0 ]; then printf '%s\n' "$@"; fi
    } >"$units/ligasd.service.d/stress.conf"

    # Every systemctl call needs the manager's environment; programs other than this shell
    # (ligas-stress, ligas-bench) get it through this script.
    cat >"$UM_SYSTEMCTL" <<EOF
#!/bin/sh
exec env -u NOTIFY_SOCKET XDG_RUNTIME_DIR='$UM_RUNTIME' XDG_CONFIG_HOME='$config' HOME='$home' /bin/systemctl --user "\$@"
EOF
    chmod 755 "$UM_SYSTEMCTL"

    # Another program may create and remove the marker directory (below) at the same moment:
    # the manager then refuses to start. Try again a couple of times.
    local attempt
    for attempt in 1 2 3; do
        _um_launch "$workdir" "$config" "$home" && break
        [ "$attempt" -lt 3 ] || return 1
        echo "user_manager_start: retrying" >&2
    done

    user_manager_systemctl daemon-reload && user_manager_systemctl start ligasd.socket || {
        echo "user_manager_start: could not start ligasd.socket" >&2
        user_manager_stop
        return 1
    }
}

_um_launch() {
    local workdir="$1" config="$2" home="$3"
    # systemd --user refuses to run unless the system looks booted with systemd: it checks for
    # this directory. Create it for the start only (apt's scripts would believe it otherwise).
    _um_created_marker=""
    if [ ! -d "$_um_marker" ]; then
        mkdir -p "$_um_marker" && _um_created_marker=1
    fi
    env -u NOTIFY_SOCKET -u LISTEN_FDS -u LISTEN_PID -u LISTEN_FDNAMES -u WATCHDOG_USEC -u WATCHDOG_PID \
        XDG_RUNTIME_DIR="$UM_RUNTIME" XDG_CONFIG_HOME="$config" HOME="$home" \
        /lib/systemd/systemd --user \
        </dev/null >"$workdir/manager.log" 2>&1 &
    export UM_MANAGER_PID=$!

    local waited=0
    until [ -S "$UM_RUNTIME/systemd/private" ]; do
        if ! kill -0 "$UM_MANAGER_PID" 2>/dev/null || [ "$waited" -ge 200 ]; then
            _um_remove_marker
            echo "user_manager_start: the manager did not start; its log:" >&2
            tail -20 "$workdir/manager.log" >&2
            user_manager_stop
            return 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    _um_remove_marker
}

# systemctl --user against this manager.
user_manager_systemctl() {
    "$UM_SYSTEMCTL" "$@"
}

# Stops the units, then the manager (by its PID), then anything of ligasd left behind.
user_manager_stop() {
    [ -n "${UM_MANAGER_PID:-}" ] || return 0
    local main
    main="$(timeout 10 "$UM_SYSTEMCTL" show -p MainPID --value ligasd.service 2>/dev/null || echo 0)"
    timeout 60 "$UM_SYSTEMCTL" stop ligasd.socket ligasd.service >/dev/null 2>&1 || true
    kill -TERM "$UM_MANAGER_PID" 2>/dev/null || true
    local waited=0
    while kill -0 "$UM_MANAGER_PID" 2>/dev/null && [ "$waited" -lt 100 ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
    kill -KILL "$UM_MANAGER_PID" 2>/dev/null || true
    wait "$UM_MANAGER_PID" 2>/dev/null || true
    # A ligasd the manager could not stop: only the process that was its main PID, and only
    # if that PID still runs ligasd.
    if [ "${main:-0}" -gt 0 ] 2>/dev/null && grep -q ligasd "/proc/$main/cmdline" 2>/dev/null; then
        kill -KILL "$main" 2>/dev/null || true
    fi
    _um_remove_marker
    unset UM_MANAGER_PID
}

_um_remove_marker() {
    if [ -n "${_um_created_marker:-}" ]; then
        rmdir "$_um_marker" 2>/dev/null || true
        _um_created_marker=""
    fi
}
