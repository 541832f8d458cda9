#!/usr/bin/env python3
"""One table from one run: ligasd's RESULT lines beside the peers' (C raw-uds, grpc-swift-2).

Usage: bench-table.py GRPC_OUT RAW_OUT LIGASD_OUT LOAD_NOTE
"""
import sys


def results(path, who):
    """{test: {key: value}} from lines 'RESULT <who> <test> k=v ...'."""
    found = {}
    with open(path) as lines:
        for line in lines:
            parts = line.split()
            if len(parts) >= 3 and parts[0] == "RESULT" and parts[1] == who:
                found[parts[2]] = dict(p.split("=", 1) for p in parts[3:] if "=" in p)
    return found


grpc = results(sys.argv[1], "grpc")
raw = results(sys.argv[2], "raw")
ours = results(sys.argv[3], "ligasd")
load_note = sys.argv[4]


def get(table, test, key):
    try:
        return float(table[test][key])
    except (KeyError, ValueError):
        return None


def fmt(value, digits=1):
    return "-" if value is None else f"{value:,.{digits}f}"


def ratio(a, b):
    return "-" if a is None or b is None or b == 0 else f"{a / b:.2f}x"


rows = []


def row(name, unit, mine, c=None, g=None, target="", met=None):
    verdict = "" if met is None else ("met" if met else "MISSED")
    rows.append((name, unit, fmt(mine), fmt(c), fmt(g), ratio(mine, c), ratio(mine, g), target, verdict))


def at_most(value, limit):
    return value is not None and limit is not None and value <= limit


def at_least(value, limit):
    return value is not None and limit is not None and value >= limit


def times(factor, value):
    return None if value is None else factor * value


c_p50 = get(raw, "pingpong", "p50_us")
g_p50 = get(grpc, "unary_seq", "p50_us")
teams_p50 = get(ours, "unary_teams", "p50_us")
blocking_p50 = get(ours, "unary_teams_blocking_client", "p50_us")
row("ping round trip p50", "us", get(ours, "unary_ping", "p50_us"), c_p50)
row("leagues round trip p50", "us", get(ours, "unary_leagues", "p50_us"), c_p50)
row("teams(24) round trip p50, blocking client", "us", blocking_p50, c_p50, g_p50,
    "<= 2x C", at_most(blocking_p50, times(2, c_p50)))
row("teams(24) round trip p50, LigasClient", "us", teams_p50, c_p50, g_p50,
    "<= 3x C", at_most(teams_p50, times(3, c_p50)))
row("teams(24) round trip p99, LigasClient", "us", get(ours, "unary_teams", "p99_us"), get(raw, "pingpong", "p99_us"), get(grpc, "unary_seq", "p99_us"))
row("teams(24) mean, LigasClient", "us", get(ours, "unary_teams", "mean_us"), get(raw, "pingpong", "mean_us"), get(grpc, "unary_seq", "mean_us"))

# Throughput lines repeat one test name per client count: key them by both.
with open(sys.argv[3]) as lines:
    throughput = {}
    for line in lines:
        parts = line.split()
        if len(parts) > 3 and parts[:2] == ["RESULT", "ligasd"] and parts[2].startswith("throughput"):
            fields = dict(p.split("=", 1) for p in parts[3:])
            throughput[(parts[2], fields["clients"])] = fields
c_conc = get(raw, "pingpong_conc", "calls_per_s")
g_conc = get(grpc, "unary_conc", "calls_per_s")
for test, label in (("throughput_teams", "LigasClient"), ("throughput_teams_blocking_clients", "blocking clients*")):
    for clients in ("1", "16", "64"):
        fields = throughput.get((test, clients))
        value = float(fields["calls_per_s"]) if fields else None
        errors = f", {fields['errors']} errors" if fields else ""
        target, met = ("", None)
        if clients == "16" and test == "throughput_teams":
            target = ">= 0.4x C, >= 20x gRPC"
            met = at_least(value, times(0.4, c_conc)) and at_least(value, times(20, g_conc))
        row(f"teams/s, {clients} clients ({label}{errors})", "req/s", value,
            c_conc if clients == "16" else None, g_conc if clients == "16" else None, target, met)

cpu = get(ours, "cpu_per_request", "us")
row("ligasd CPU per cached teams request, 16 clients", "us", cpu, target="<= 20", met=at_most(cpu, 20))
row("journald CPU per request, 16 clients", "us", get(ours, "cpu_per_request", "journald_us"))
row("ligasd CPU per request, one client at a time*", "us", get(ours, "cpu_per_request_sequential", "us"))
row("journald CPU per request, one client at a time*", "us", get(ours, "cpu_per_request_sequential", "journald_us"))

load = ours.get("load_1000", {})
cores = get(ours, "load_1000", "cores")
threads_peak = get(ours, "load_1000", "threads_peak")
row(f"1,000 connections x 100: ligasd peak threads ({load.get('cores', '?')} cores)", "", threads_peak,
    target="<= 2 x cores + 8", met=at_most(threads_peak, None if cores is None else 2 * cores + 8))
load_rate = get(ours, "load_1000", "calls_per_s")
sixteen = throughput.get(("throughput_teams", "16"))
row(f"1,000 connections x 100: teams/s ({load.get('errors', '?')} errors)", "req/s", load_rate,
    target=">= half the 16 clients, 0 errors",
    met=at_least(load_rate, None if sixteen is None else 0.5 * float(sixteen["calls_per_s"])) and load.get("errors") == "0")
row("1,000 connections x 100: p50", "ms", get(ours, "load_1000", "p50_ms"))
row("1,000 connections x 100: p99", "ms", get(ours, "load_1000", "p99_ms"))

c_stream = get(raw, "stream", "mib_per_s")
g_stream = get(grpc, "stream_raw", "mib_per_s")
for size in ("1mib", "20mib"):
    value = get(ours, f"stream_{size}", "mib_per_s")
    row(f"image stream {size[:-3]} MiB from cache", "MiB/s", value, c_stream, g_stream, ">= 0.3x C, >= 3x gRPC",
        at_least(value, times(0.3, c_stream)) and at_least(value, times(3, g_stream)))
    row(f"image stream {size[:-3]} MiB, blocking client*", "MiB/s", get(ours, f"stream_{size}_blocking_client", "mib_per_s"), c_stream, g_stream)

# Both cold starts are timed from the first connection to a socket no ligasd serves yet.
cold_sa = get(ours, "cold_start_socket_activate", "p50_ms")
row("cold start, systemd-socket-activate p50", "ms", cold_sa, target="<= 20", met=at_most(cold_sa, 20))
row("cold start, systemd-socket-activate max", "ms", get(ours, "cold_start_socket_activate", "max_ms"))
row("cold start, systemd-socket-activate p50, from its spawn*", "ms", get(ours, "cold_start_socket_activate", "from_spawn_p50_ms"))
cold_um = get(ours, "cold_start_user_manager", "p50_ms")
runs_um = ours.get("cold_start_user_manager", {}).get("runs", "?")
row(f"cold start, systemd --user p50 (n={runs_um})", "ms", cold_um, target="<= 20", met=at_most(cold_um, 20))
row("cold start, systemd --user max", "ms", get(ours, "cold_start_user_manager", "max_ms"))
row("cold start, systemd-socket-activate p50, ping-only.c**", "ms", get(ours, "cold_start_floor_socket_activate", "p50_ms"))
runs_floor = ours.get("cold_start_floor_user_manager", {}).get("runs", "?")
row(f"cold start, systemd --user p50 (n={runs_floor}), ping-only.c**", "ms", get(ours, "cold_start_floor_user_manager", "p50_ms"))

client_p50 = get(ours, "client_process", "p50_ms")
runs = ours.get("client_process", {}).get("runs", "?")
row(f"ligas-client teams process p50 (n={runs})", "ms", client_p50, target="<= 10", met=at_most(client_p50, 10))
row("ligas-client teams process min", "ms", get(ours, "client_process", "min_ms"))
row("ligas-client teams process max", "ms", get(ours, "client_process", "max_ms"))
row("ligas-client peak RSS", "MiB", get(ours, "client_process", "peak_rss_mib"))

idle_start = get(ours, "memory_idle", "rss_start_mib")
idle = get(ours, "memory_idle", "rss_warm_mib")
row("RSS idle at start", "MiB", idle_start, target="<= 12", met=at_most(idle_start, 12))
row("RSS at the first reply*", "MiB", get(ours, "memory_idle", "rss_first_reply_mib"))
row("RSS idle, cache warm", "MiB", idle, target="<= 16", met=at_most(idle, 16))
row("RSS peak under load (64 clients)", "MiB", get(ours, "memory_under_load", "rss_peak_mib"))
growth = get(ours, "memory_slow_reader", "growth_mib")
row(f"RSS growth, slow reader ({ours.get('memory_slow_reader', {}).get('streamed_mib', '?')} MiB)", "MiB", growth,
    target="<= 8", met=growth is not None and growth <= 8)
flights = get(ours, "single_flight", "remote_requests")
row(f"single flight: remote requests for {ours.get('single_flight', {}).get('clients', '?')} cold requests", "", flights,
    target="1", met=flights == 1)

# MB = 10^6 bytes, of stripped copies.
client_mb = get(ours, "binary_size", "client_mb")
daemon_mb = get(ours, "binary_size", "daemon_mb")
row("binary size, ligas-client stripped", "MB", client_mb, target="<= 16", met=at_most(client_mb, 16))
row("binary size, ligasd stripped", "MB", daemon_mb, target="<= 40", met=at_most(daemon_mb, 40))

headers = ("measure", "unit", "ligasd", "C raw-uds", "gRPC", "vs C", "vs gRPC", "target", "")
widths = [max(len(str(r[i])) for r in rows + [headers]) for i in range(len(headers))]
for r in [headers] + rows:
    print("  ".join(str(cell).ljust(widths[i]) if i < 2 else str(cell).rjust(widths[i]) for i, cell in enumerate(r)))
print(f"C: ping-pong {raw.get('pingpong', {}).get('req_bytes', '?')}B->{raw.get('pingpong', {}).get('resp_bytes', '?')}B, "
      f"16 conns, 1 MiB stream in 64 KiB writes; gRPC: Teams unary JSON, 16 callers on 1 conn, 1 MiB raw chunks.")
print("* = extra rows, not targets: a blocking single-request client (the daemon's cost apart from the client library's);")
print("    the cold start from spawning systemd-socket-activate, which binds only then (the row above starts at the first connection);")
print("    RSS at the first reply, before ligasd gives memory back (idle: a second after its last client left).")
print("** = the floor under ligasd's cold starts: Benchmarks/cold-start-floor/ping-only.c, a C program that only answers")
print("    the ping, started in ligasd's place (same units, same client); what ligasd takes beyond it is its own.")
print(f"log: {ours.get('log_target', {}).get('target', '?')} at level {ours.get('log_target', {}).get('level', '?')}")
print(load_note)
