#!/usr/bin/env python3
"""The roomtax benchmark (driven by bench/run.sh; see bench/README.md).

Python 3 standard library only, plus Debian's `wrk` and (PostgreSQL) `pgbench`.
The database (a SQLite file, or a fresh PostgreSQL database with the two roles) is
prepared by run.sh; this program:

1. seeds it at the scale with `roomtax bench-seed` (the use cases, batched);
2. starts `roomtax serve` (bench/crash/crash.py's Server), signs every municipality's
   clerk-treasurer and the zone administrator in, writes the Lua data file wrk reads;
3. runs wrk once per scenario (bench/wrk/*.lua) with the same threads, connections
   and duration, reading the server's VmRSS and VmHWM (/proc/PID/status) after each;
4. on PostgreSQL runs pgbench with the SQL equivalent of a filing (bench/pgbench/
   filing.sql: the same rows in one transaction, as the runtime role, tenant set)
   at the same client count;
5. prints and writes bench/results/<date>-<backend>[-<label>].json and .md: per
   scenario requests/s, its ratio to /healthz, p50/p90/p99 latency, non-2xx, and
   filing's ratio to pgbench; the machine's load average before and after.

No assertion on speed: exit 1 only when a scenario answered a non-2xx, a request
failed at the socket, or a scenario did not run.
"""

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time
import urllib.parse
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "crash"))
from crash import Server, request  # noqa: E402  (the crash test's server helpers)

# name, wrk script, what it is
SCENARIOS = [
    ("healthz", "healthz.lua", "GET /healthz (anchor: the bare framework)"),
    ("quote", "quote.lua", "POST /v1/municipalities/{m}/quotes"),
    ("me", "me.lua", "GET /v1/me (authenticated read)"),
    ("payor", "payor.lua", "GET .../payors/{p} (a confidential read: one row, access-logged)"),
    ("statement", "statement.lua", "GET .../payors/{p}/account (statement)"),
    ("missing", "missing.lua", "GET .../returns?period=2025-Q4&status=missing"),
    ("remittances", "remittances.lua", "GET /v1/zones/{z}/remittances?year=2025"),
    ("sl304", "sl304.lua", "GET .../state-report?year=2025 (SL-304)"),
    ("statistics", "statistics.lua", "GET /v1/zones/{z}/statistics?year=2025"),
    ("filing", "filing.lua", "POST .../payors/{p}/returns (filing)"),
    ("payment", "payment.lua", "POST .../payors/{p}/payments"),
]


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def proc_status(pid):
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "VmHWM"):
                    out[k] = int(v.split()[0]) // 1024  # MiB
    except OSError:
        pass
    return out


def cpu_seconds(pid):
    """The server's CPU time so far (user + system, every thread), seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return None


def loadavg():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def seed(args, env):
    """Seed the database, or with --reuse read what an earlier run's seed wrote
    (seed.json and ids.csv in the work folder): the report, with the accounts'
    password and how far earlier runs' writes went."""
    ids = os.path.join(args.work, "ids.csv")
    saved = os.path.join(args.work, "seed.json")
    if args.reuse:
        with open(saved) as f:
            report = json.load(f)
        report["reused"] = True
    else:
        started = time.time()
        out = subprocess.run([args.bin, "bench-seed", "--scale", str(args.scale), "--ids", ids],
                             env=env, capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"roomtax bench-seed failed: {out.stderr[-2000:]}")
        report = json.loads(out.stdout.strip().splitlines()[-1])
        report["seconds"] = round(time.time() - started, 1)
        report["writes_used"] = {}
        save_seed(saved, report)
    payors = []
    slugs = {s: i + 1 for i, s in enumerate(report["municipalities"])}
    with open(ids) as f:
        for line in f:
            slug, pid = line.strip().split(",")
            payors.append((slugs[slug], pid))
    return report, payors


def save_seed(path, report):
    """The seed's report for a later --reuse (mode 0600: it holds the password of
    the bench's accounts)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump({k: v for k, v in report.items() if k != "reused"}, f, indent=2)


def sign_in(addr, email, password):
    st, body, _ = request(addr, "POST", "/v1/auth/token", {"email": email, "password": password})
    if st != 200:
        raise SystemExit(f"sign-in of {email}: {st} {body}")
    return body["access_token"]


def write_lua(path, addr, report, payors, run_id):
    """The Lua data file wrk's scripts load: tokens and the run's names. The payors
    go to a text file beside it, one `index payor_id` a line, which common.lua reads
    line by line (a Lua table literal of 100,000 payors passes Lua's limit of 65,536
    constants in one function)."""
    password = report["password"]
    today = datetime.now(ZoneInfo("America/Chicago")).date().isoformat()
    munis = [(s, sign_in(addr, f"clerk@{s}.bench", password)) for s in report["municipalities"]]
    admin = sign_in(addr, report["zone_admin"], password)
    payor_file = path + ".payors"
    with open(payor_file, "w") as f:
        for m, pid in payors:
            f.write(f"{m} {pid}\n")
    with open(path, "w") as f:
        f.write("return {\n")
        f.write(f'  run = "{run_id}", today = "{today}", zone = "{report["zone"]}",\n')
        f.write(f'  admin = "{admin}", payors_file = "{payor_file}",\n  munis = {{\n')
        for slug, token in munis:
            f.write(f'    {{ slug = "{slug}", token = "{token}" }},\n')
        f.write("  },\n}\n")
    return time.time()


# A filing files each (payor, period) once: bench/wrk/filing.lua has three periods.
FILING_PERIODS = 3


def filings_left(args, npayors, base):
    """(payor, period) pairs not yet filed once indices up to `base` are used, less a
    margin of two requests a connection that wrk may have in flight."""
    return npayors * FILING_PERIODS - base - 2 * args.clients


def half_peak(args, addr, script, data, name, peak, npayors):
    """The pass at half the peak rate. Each of the clients must send a request every
    period = 2 * clients / peak seconds; wrk's delay() is the wait between an answer
    and the next request, so the pace is that period less the latency at that rate.
    The latency at saturation (the first pass's p50) is far longer than at half the
    rate, and subtracting it held the rate at 73-81 % of the peak (runs before
    2026-12-06 session 32). So a short calibration pass at the full period measures
    the latency at about half the rate, and the measured pass subtracts that."""
    period_ms = 2000.0 * args.clients / peak["rps"]
    base = peak.get("max_index", -1) + 1
    if name == "filing":
        # Each (payor, period) is filed once: the calibration and a pass of at
        # least a second at half the rate must fit in what the first pass left,
        # or the pass would refile pairs (409s). Better no figure than a false one.
        left = filings_left(args, npayors, base)
        if left < 3 * peak["rps"] / 2:
            return {"error": f"no half-peak pass: {max(left, 0)} unfiled returns left after the "
                             f"first pass; use a larger --scale or a shorter --duration"}
    settle(addr)
    cal = run_wrk(args, addr, script, data, f"{name}-half-calibration",
                  pace_ms=max(1, round(period_ms)), index_base=base, duration=2)
    if "error" in cal:
        return cal
    base = cal.get("max_index", base - 1) + 1
    pace = max(1, round(period_ms - cal["latency_us"]["p50"] / 1000.0))
    duration = args.duration
    if name == "filing":
        # Only so many returns are left to file: a shorter pass rather than
        # filings refused as already filed (a small scale on a fast machine).
        left = filings_left(args, npayors, base)
        duration = max(1, min(args.duration, int(0.8 * left / max(peak["rps"] / 2, 1))))
    settle(addr)
    h = run_wrk(args, addr, script, data, f"{name}-half", pace_ms=pace,
                index_base=base, duration=duration)
    h["pace_ms"] = pace
    h["duration"] = duration
    h["calibration"] = {"pace_ms": max(1, round(period_ms)), "rps": cal.get("rps"),
                        "p50_us": cal["latency_us"]["p50"], "max_index": base - 1}
    if "rps" in h:
        h["of_peak"] = round(h["rps"] / peak["rps"], 3)
    return h


def run_wrk(args, addr, script, data, name, pace_ms=0, index_base=0, duration=None):
    out = os.path.join(args.work, f"wrk-{name}.json")
    env = dict(os.environ, BENCH_DATA=data, BENCH_OUT=out, BENCH_THREADS=str(args.threads),
               BENCH_LUA_DIR=os.path.join(HERE, "wrk"), BENCH_PACE_MS=str(pace_ms),
               BENCH_INDEX_BASE=str(index_base))
    cmd = ["wrk", "-t", str(args.threads), "-c", str(args.clients), "-d", f"{duration or args.duration}s",
           "--timeout", "10s", "-s", os.path.join(HERE, "wrk", script), f"http://{addr}"]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True)
    with open(os.path.join(args.work, f"wrk-{name}.txt"), "w") as f:
        f.write(res.stdout + res.stderr)
    if res.returncode != 0 or not os.path.exists(out):
        return {"error": f"wrk failed: {res.stderr.strip()[-500:]}"}
    with open(out) as f:
        r = json.load(f)
    r["rps"] = round(r["requests"] / (r["duration_us"] / 1e6), 1) if r["duration_us"] else 0.0
    return r


def run_pgbench(args):
    script = os.path.join(HERE, "pgbench", "filing.sql")
    env = dict(os.environ, PGOPTIONS="-c app.bench_run=pgbench")
    cmd = ["pgbench", "-n", "-M", "prepared", "-c", str(args.clients), "-j", str(args.threads),
           "-T", str(args.duration), "-f", script, "-D", f"municipality_id={args.pg_municipality}",
           "-D", f"payor_count={args.pg_payors}", "-r", args.pg_app_url]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True)
    with open(os.path.join(args.work, "pgbench.txt"), "w") as f:
        f.write(res.stdout + res.stderr)
    if res.returncode != 0:
        return {"error": f"pgbench failed: {res.stderr.strip()[-800:]}"}
    tps = re.search(r"tps = ([\d.]+) \(without initial connection time\)", res.stdout)
    lat = re.search(r"latency average = ([\d.]+) ms", res.stdout)
    failed = re.search(r"number of failed transactions: (\d+)", res.stdout)
    done = re.search(r"number of transactions actually processed: (\d+)", res.stdout)
    return {"tps": float(tps.group(1)) if tps else 0.0,
            "latency_ms_mean": float(lat.group(1)) if lat else None,
            "transactions": int(done.group(1)) if done else 0,
            "failed": int(failed.group(1)) if failed else 0}


def remove_pgbench_rows(args):
    """Take pgbench's rows out again (as the superuser, the append-only triggers off for
    this session only): its returns have no real period and its journals no real
    accounts, so the service would refuse to read those payors' ledgers in a later
    --reuse run, and `roomtax check` would flag them."""
    sql = """
SET session_replication_role = replica;
BEGIN;
CREATE TEMP TABLE pgbench_returns ON COMMIT DROP AS
  SELECT municipality_id, id FROM tax_returns WHERE period LIKE 'pgbench-%';
DELETE FROM ledger_lines l USING ledger_journals j, pgbench_returns r
  WHERE l.municipality_id = j.municipality_id AND l.journal_id = j.id
    AND j.municipality_id = r.municipality_id AND j.cause_type = 'return_version'
    AND j.cause_id = r.id || ':1';
DELETE FROM ledger_journals j USING pgbench_returns r
  WHERE j.municipality_id = r.municipality_id AND j.cause_type = 'return_version'
    AND j.cause_id = r.id || ':1';
DELETE FROM return_versions v USING pgbench_returns r
  WHERE v.municipality_id = r.municipality_id AND v.return_id = r.id;
DELETE FROM access_log a USING pgbench_returns r
  WHERE a.municipality_id = r.municipality_id AND a.record_id = r.id AND a.actor_id = 'pgbench';
DELETE FROM tax_returns t USING pgbench_returns r
  WHERE t.municipality_id = r.municipality_id AND t.id = r.id;
DELETE FROM idempotency_keys WHERE actor = 'user:pgbench';
COMMIT;
"""
    res = subprocess.run(["psql", args.sql_url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql],
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"removing pgbench's rows failed: {res.stderr.strip()[-800:]}")


def pg_payor_setup(args, report, payors):
    """The municipality and payors pgbench files for: the first municipality's."""
    args.pg_municipality = None
    out = subprocess.run(["psql", args.sql_url, "-X", "-A", "-t", "-c",
                          "SELECT id FROM municipalities WHERE slug = 'bench-001'"],
                         capture_output=True, text=True, check=True)
    args.pg_municipality = int(out.stdout.strip())
    mine = [p for m, p in payors if m == 1]
    # pgbench picks payor k of this table (bench_payors is the superuser's helper view
    # of the first municipality's payors, readable by the runtime role).
    sql = ("DROP TABLE IF EXISTS bench_payors; CREATE TABLE bench_payors (k integer PRIMARY KEY, payor_id text NOT NULL);"
           f"GRANT SELECT ON bench_payors TO {args.pg_app_role};")
    subprocess.run(["psql", args.sql_url, "-X", "-q", "-c", sql], check=True)
    rows = "\n".join(f"{k}\t{p}" for k, p in enumerate(mine))
    subprocess.run(["psql", args.sql_url, "-X", "-q", "-c", "COPY bench_payors FROM STDIN"],
                   input=rows + "\n", text=True, check=True)
    args.pg_payors = len(mine)


def pg_vacuum(args):
    """What autovacuum does to a table after a bulk load, done once before measuring:
    `VACUUM (ANALYZE)` of the whole database (as the superuser). Production runs with
    autovacuum on (the service warns at start-up when it is off); a PostgreSQL whose
    autovacuum is off (this project's development machine) would otherwise be measured
    with no planner statistics and no visibility map: every index-only scan fetching the
    heap, and plans made for empty tables. Returns autovacuum's setting and the seconds
    the VACUUM took."""
    out = subprocess.run(["psql", args.sql_url, "-X", "-A", "-t", "-c", "SHOW autovacuum"],
                         capture_output=True, text=True, check=True)
    t = time.time()
    subprocess.run(["psql", args.sql_url, "-X", "-q", "-c", "VACUUM (ANALYZE)"], check=True)
    return {"autovacuum": out.stdout.strip(), "vacuum_analyze_seconds": round(time.time() - t, 1)}


def settle(addr):
    """Let the server finish what the previous scenario left queued (wrk stops sending
    at its deadline; requests in the blocking pool still run): wait until /readyz, which
    takes a database connection, answers quickly twice in a row."""
    deadline = time.time() + 120
    quick = 0
    while time.time() < deadline and quick < 2:
        t = time.time()
        try:
            ok = request(addr, "GET", "/readyz", timeout=30)[0] == 200
        except OSError:
            ok = False
        quick = quick + 1 if ok and time.time() - t < 0.5 else 0
        time.sleep(0.5)


def ms(us):
    return round(us / 1000.0, 2)


def markdown(result):
    lines = [f"# roomtax benchmark: {result['backend']}, scale {result['scale']} "
             f"({result['started']})", "",
             f"Binary `{result['binary']}`; wrk -t{result['threads']} -c{result['clients']} "
             f"-d{result['duration']}s per scenario; load average before "
             f"{result['load_before']}, after {result['load_after']} on {result['cpus']} CPUs "
             f"(server, wrk and {'PostgreSQL' if result['backend'] == 'postgres' else 'nothing else of ours'}"
             " on the same machine).", "",
             f"Seed: {result['seed']['size']['municipalities']} municipalities × "
             f"{result['seed']['size']['payors_per_municipality']} payors, "
             f"{result['seed']['returns']} returns, {result['seed']['payments']} payments, "
             f"{result['seed']['remittances']} remittances in {result['seed']['seconds']} s."
             + (f" Then `VACUUM (ANALYZE)` in {result['pg_vacuum']['vacuum_analyze_seconds']} s "
                f"(the server's autovacuum: {result['pg_vacuum']['autovacuum']})."
                if result.get('pg_vacuum') else
                (" Measured as seeded (`--no-vacuum`)." if result['backend'] == 'postgres' else ""))
             + (f" The service and pgbench connect with sslmode={result['pg_sslmode']}."
                if result.get('pg_sslmode') else ""),
             "",
             "| scenario | requests/s | of /healthz | server CPU µs/request | p50 ms | p90 ms | p99 ms | at half peak: requests/s (of peak) | p99 ms | non-2xx | socket errors | RSS MiB after | peak RSS MiB |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for s in result["scenarios"]:
        if "error" in s:
            lines.append(f"| {s['name']} | {s['error']} | | | | | | | | | | | |")
            continue
        e = s["errors"]
        sock = e["connect"] + e["read"] + e["write"] + e["timeout"]
        h = s.get("half_peak") or {}
        half = ("| " if not h else f"{h['error']} | " if "error" in h else
                f"{h['rps']:.0f}" + (f" ({h['of_peak'] * 100:.0f} %)" if "of_peak" in h else "") +
                f" | {ms(h['latency_us']['p99'])}")
        lines.append(
            f"| {s['name']} | {s['rps']:.0f} | {s['ratio_to_healthz'] * 100:.1f} % | "
            f"{s.get('server_cpu_us_per_request', '?')} | {ms(s['latency_us']['p50'])} | {ms(s['latency_us']['p90'])} | "
            f"{ms(s['latency_us']['p99'])} | {half} | {e['status']} | {sock} | "
            f"{s['memory'].get('VmRSS', '?')} | {s['memory'].get('VmHWM', '?')} |")
    pg = result.get("pgbench")
    if pg:
        lines += ["", f"pgbench, the SQL of a filing (bench/pgbench/filing.sql) at "
                      f"{result['clients']} clients: " +
                  (pg["error"] if "error" in pg else
                   f"{pg['tps']:.0f} transactions/s, mean latency {pg['latency_ms_mean']} ms, "
                   f"{pg['failed']} failed" +
                   (f"; filing through the service is {result['filing_to_pgbench'] * 100:.1f} % of it."
                    if "filing_to_pgbench" in result else " (the filing was not measured)."))]
    lines += ["", f"Peak resident memory of the server (VmHWM): {result['peak_rss_mib']} MiB.", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--backend", required=True)
    ap.add_argument("--scale", type=float, required=True)
    ap.add_argument("--duration", type=int, default=20)
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", default="",
                    help="comma-separated scenario names; on PostgreSQL `pgbench` names the "
                         "anchor alone (it also runs with `filing`)")
    ap.add_argument("--label", default="")
    ap.add_argument("--no-half-peak", dest="half_peak", action="store_false",
                    help="skip the second, paced pass of each scenario at half its peak rate")
    ap.add_argument("--results", default=os.path.join(HERE, "results"))
    ap.add_argument("--reuse", action="store_true",
                    help="the work folder holds an earlier run's seed (SQLite)")
    ap.add_argument("--no-vacuum", dest="vacuum", action="store_false",
                    help="PostgreSQL: measure the database as seeded, without VACUUM (ANALYZE)")
    ap.add_argument("--sql-url", default="")
    ap.add_argument("--pg-app-url", default="")
    ap.add_argument("--pg-app-role", default="")
    args = ap.parse_args()

    env = dict(os.environ)
    env.update({"ROOMTAX_HOST": "127.0.0.1", "ROOMTAX_PORT": "0",
                "ROOMTAX_LOG": env.get("ROOMTAX_LOG", "warn")})
    started = datetime.now(timezone.utc)
    load_before = loadavg()
    log(f"seeding scale {args.scale} on {args.backend}")
    report, payors = seed(args, env)
    log(f"seeded {report['returns']} returns, {report['payments']} payments in {report['seconds']} s")
    maintained = None
    if args.backend == "postgres":
        pg_payor_setup(args, report, payors)
        if args.vacuum:
            maintained = pg_vacuum(args)
            log(f"VACUUM (ANALYZE) in {maintained['vacuum_analyze_seconds']} s "
                f"(autovacuum is {maintained['autovacuum']} on this server)")

    server = Server(args.bin, args.work, env)
    server.start()
    pid = server.proc.pid
    log(f"server {pid} on {server.addr}")
    result = {"backend": args.backend, "scale": args.scale, "binary": args.bin,
              "started": started.isoformat(timespec="seconds"), "clients": args.clients,
              "threads": args.threads, "duration": args.duration, "cpus": os.cpu_count(),
              "machine": platform.platform(), "load_before": load_before,
              "seed": {k: v for k, v in report.items() if k != "password"}, "scenarios": [],
              "pg_vacuum": maintained,
              "pg_sslmode": (urllib.parse.parse_qs(urllib.parse.urlsplit(args.pg_app_url).query)
                             .get("sslmode", ["libpq's default (prefer)"])[0]
                             if args.backend == "postgres" else None)}
    data = os.path.join(args.work, "data.lua")
    run_id = f"{int(time.time())}"
    try:
        signed = write_lua(data, server.addr, report, payors, run_id)
        only = set(filter(None, args.only.split(",")))
        for name, script, what in SCENARIOS:
            if only and name not in only and name != "healthz":
                continue
            if time.time() - signed > 600:  # access tokens last 15 minutes
                signed = write_lua(data, server.addr, report, payors, run_id)
            settle(server.addr)
            log(f"{name}: {what}")
            cpu_before = cpu_seconds(pid)
            r = run_wrk(args, server.addr, script, data, name,
                        index_base=report["writes_used"].get(name, 0))
            cpu_after = cpu_seconds(pid)
            r.update({"name": name, "what": what, "memory": proc_status(pid)})
            if cpu_before is not None and cpu_after is not None and r.get("requests"):
                # The server's own CPU per request: steadier than requests/s on a
                # shared machine (wrk's CPU and other load are not in it).
                r["server_cpu_us_per_request"] = round(
                    (cpu_after - cpu_before) * 1e6 / r["requests"], 1)
            result["scenarios"].append(r)
            if "error" in r:
                log(f"  {r['error']}")
                continue
            log(f"  {r['rps']:.0f}/s p50 {ms(r['latency_us']['p50'])} ms "
                f"p99 {ms(r['latency_us']['p99'])} ms non-2xx {r['errors']['status']}")
            if args.half_peak and r["rps"] > 0:
                r["half_peak"] = half_peak(args, server.addr, script, data, name, r, len(payors))
                h = r["half_peak"]
                if "error" in h:
                    log(f"  half peak: {h['error']}")
                else:
                    log(f"  half peak (pace {h['pace_ms']} ms): {h['rps']:.0f}/s "
                        f"({h['of_peak'] * 100:.0f} % of peak) p99 {ms(h['latency_us']['p99'])} ms "
                        f"non-2xx {h['errors']['status']}")
            if name in ("filing", "payment") and "max_index" in r:
                # Writes (filing, payment) continue here in a later --reuse run.
                used = report["writes_used"]
                used[name] = max(used.get(name, 0), r["max_index"] + 1,
                                 (r.get("half_peak") or {}).get("max_index", -1) + 1,
                                 ((r.get("half_peak") or {}).get("calibration") or {}).get("max_index", -1) + 1)
                save_seed(os.path.join(args.work, "seed.json"), report)
        if args.backend == "postgres" and (not only or only & {"filing", "pgbench"}):
            log(f"pgbench: the SQL of a filing at {args.clients} clients")
            result["pgbench"] = run_pgbench(args)
            log(f"  {result['pgbench']}")
            remove_pgbench_rows(args)
    finally:
        result["peak_rss_mib"] = proc_status(pid).get("VmHWM")
        server.stop()
    result["load_after"] = loadavg()

    healthz = next((s for s in result["scenarios"] if s["name"] == "healthz" and "rps" in s), None)
    for s in result["scenarios"]:
        if "rps" in s:
            s["ratio_to_healthz"] = round(s["rps"] / healthz["rps"], 4) if healthz and healthz["rps"] else 0.0
    filing = next((s for s in result["scenarios"] if s["name"] == "filing" and "rps" in s), None)
    pg = result.get("pgbench")
    if filing and pg and pg.get("tps"):
        result["filing_to_pgbench"] = round(filing["rps"] / pg["tps"], 4)

    os.makedirs(args.results, exist_ok=True)
    stem = started.strftime("%Y-%m-%d") + f"-{args.backend}" + (f"-{args.label}" if args.label else "")
    base = os.path.join(args.results, stem)
    with open(base + ".json", "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    md = markdown(result)
    with open(base + ".md", "w") as f:
        f.write(md)
    print(md)
    log(f"wrote {base}.json and {base}.md")

    bad = []
    for s in result["scenarios"]:
        if "error" in s:
            bad.append(f"{s['name']}: {s['error']}")
            continue
        e = s["errors"]
        if s["requests"] == 0:
            bad.append(f"{s['name']}: no request completed")
        if e["status"]:
            bad.append(f"{s['name']}: {e['status']} non-2xx answers")
        if e["connect"] + e["read"] + e["write"] + e["timeout"]:
            bad.append(f"{s['name']}: socket errors {e}")
        h = s.get("half_peak")
        if h and ("error" in h or h["errors"]["status"] or h["requests"] == 0):
            bad.append(f"{s['name']} at half peak: {h.get('error') or h['errors']}")
    if pg and ("error" in pg or pg.get("failed")):
        bad.append(f"pgbench: {pg}")
    for b in bad:
        log(f"FAIL: {b}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
