import Testing

/// Tests that touch what the whole test process shares: environment variables (`NOTIFY_SOCKET`,
/// `WATCHDOG_*`, `LISTEN_*`) and child processes (journald, journalctl, systemd-socket-activate),
/// whose spawning reads the environment. They run one at a time; their suites are nested here (in
/// extensions, one file per subject) so `.serialized` covers them all.
@Suite(.serialized) struct ProcessWideStateTests {}
