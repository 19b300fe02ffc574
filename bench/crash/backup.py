#!/usr/bin/env python3
"""Backup under load (driven by bench/crash/backup.sh; Python 3 standard library only).

On a SQLite database prepared by backup.sh: loads the demo, starts `roomtax serve`,
runs the clients of crash.py (filings and payments, each with an Idempotency-Key; no
kills) and, while they write, takes BACKUPS online backups with `roomtax backup`. Then
the clients stop and one more backup is taken with the server still running, idle.
Each backup is restored into a fresh file with `roomtax restore` (which verifies it:
integrity check, migrations, the ledger check) and compared with the live database:
- every request acknowledged before the backup started is in it;
- every row of an append-only table in it (ledger, payments, return versions, ...) is
  in the live database unchanged (a snapshot of one moment: it can lack later rows,
  never hold rows the database does not);
- `roomtax check` passes on the restored file;
- the last backup (taken idle) equals the live database row for row, every table.
Prints a row-count table per backup, PASS or FAIL, and writes backup-result.json.
"""

import argparse
import os
import sqlite3
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crash  # noqa: E402

APPEND_ONLY = ["ledger_journals", "ledger_lines", "payments", "refunds", "determinations",
               "security_deposits", "security_events", "clearance_certificates", "notices",
               "notice_documents", "tax_returns", "return_versions"]


def tables(db):
    return [r[0] for r in db.execute(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]


def rows(db, table):
    return sorted(db.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--backups", type=int, default=3, help="backups taken under load")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    args = ap.parse_args()
    source = os.path.join(args.work, "roomtax.db")
    env = dict(os.environ)
    env.update({"DATABASE_URL": f"sqlite://{source}", "ROOMTAX_HOST": "127.0.0.1", "ROOMTAX_PORT": "0",
                "ROOMTAX_KEYS_DIR": os.path.join(args.work, "keys"),
                "ROOMTAX_ACCESS_TOKEN_TTL_SECS": "3600", "ROOMTAX_LOG": "warn"})
    env.pop("ROOMTAX_MIGRATION_DATABASE_URL", None)
    out = subprocess.run([args.bin, "demo"], env=env, capture_output=True, text=True, check=True)
    password = next(line.split(": ", 1)[1].strip() for line in out.stdout.splitlines()
                    if line.startswith("Demo accounts (password shown only now): "))
    # Enough work to outlast the backups (three, 1 to 3 s apart): with 6 payors a
    # client (884 requests) the faster service of 2026-12-03 had finished before
    # the second backup, and the run proved nothing. 24 a client is about 3,500.
    run = crash.Run(argparse.Namespace(seed=args.seed, clients=args.clients, payors=24, fault=None))
    server = crash.Server(args.bin, args.work, env)
    server.start()
    run.setup(server, password)
    threads = [threading.Thread(target=run.client, args=(server, spec), daemon=True) for spec in run.clients]
    for t in threads:
        t.start()
    failures = []
    backups = []

    def take(name):
        path = os.path.join(args.work, name)
        with run.lock:
            before = dict(run.acked)
        t0 = time.time()
        res = subprocess.run([args.bin, "backup", "--output", path], env=env, capture_output=True, text=True)
        took = time.time() - t0
        if res.returncode != 0:
            failures.append(f"backup {name}: {res.stderr.strip()}")
            return
        crash.log(f"{name}: {res.stdout.strip()} in {took:.2f} s, {len(before)} requests acknowledged before it")
        backups.append({"name": name, "path": path, "acked_before": before, "seconds": round(took, 2),
                        "line": res.stdout.strip()})

    for i in range(1, args.backups + 1):
        time.sleep(run.rng.uniform(1.0, 3.0))
        take(f"under-load-{i}.db")
    time.sleep(0.5)
    run.stop.set()
    for t in threads:
        t.join()
    take("idle.db")
    # The backups must have been taken under load: requests acknowledged before
    # each and between them (else this run proves nothing).
    seen = [len(b["acked_before"]) for b in backups]
    if len(seen) != args.backups + 1 or seen[0] == 0 or any(a >= b for a, b in zip(seen, seen[1:])):
        failures.append(f"the clients did not write between the backups (acknowledged before each: {seen})")
    live = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    live_tables = tables(live)
    report = []
    for b in backups:
        restored = os.path.join(args.work, "restored-" + b["name"])
        renv = dict(env, DATABASE_URL=f"sqlite://{restored}")
        res = subprocess.run([args.bin, "restore", "--input", b["path"]], env=renv, capture_output=True, text=True)
        if res.returncode != 0:
            failures.append(f"restore of {b['name']}: {res.stderr.strip()}")
            continue
        chk = subprocess.run([args.bin, "check"], env=renv, capture_output=True, text=True)
        if chk.returncode != 0 or "ledger check passed" not in chk.stdout:
            failures.append(f"roomtax check on the restored {b['name']}: {chk.stdout[-1500:]}{chk.stderr[-500:]}")
        copy = sqlite3.connect(f"file:{restored}?mode=ro", uri=True)
        if tables(copy) != live_tables:
            failures.append(f"{b['name']}: tables differ")
        counts = {}
        for t in live_tables:
            counts[t] = (copy.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0],
                         live.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0])
        for t in APPEND_ONLY:
            missing = set(rows(copy, t)) - set(rows(live, t))
            if missing:
                failures.append(f"{b['name']}: {len(missing)} row(s) of {t} not in the live database")
        refs = {r[0] for r in copy.execute("SELECT reference FROM payments")}
        returns = {r[0] for r in copy.execute("SELECT id FROM tax_returns")}
        for key, rec in b["acked_before"].items():
            present = (key in refs) if rec["kind"] == "payment" else (rec["id"] in returns)
            if not present:
                failures.append(f"{b['name']}: {rec['kind']} {rec['id']} acknowledged before the backup is missing")
        if b["name"] == "idle.db":
            for t in live_tables:
                if rows(copy, t) != rows(live, t):
                    failures.append(f"idle.db: table {t} differs from the live database")
        report.append({"backup": b["name"], "seconds": b["seconds"], "summary": b["line"],
                       "acknowledged_before": len(b["acked_before"]),
                       "rows": {t: {"backup": c[0], "live": c[1]} for t, c in counts.items()
                                if t in APPEND_ONLY + ["idempotency_keys", "payors"]}})
    live.close()
    server.stop()
    for suffix in ("-wal", "-shm"):
        if os.path.exists(source + suffix):
            crash.log(f"note: {os.path.basename(source)}{suffix} left after SIGTERM")
    # The README's restore: the service stopped, the idle backup restored over the
    # live database (--force), then the ledger check on it.
    res = subprocess.run([args.bin, "restore", "--input", os.path.join(args.work, "idle.db"), "--force"],
                         env=env, capture_output=True, text=True)
    if res.returncode != 0 or "kept as" not in res.stdout:
        failures.append(f"restore over the stopped service's database: {res.stdout[-500:]}{res.stderr[-500:]}")
    else:
        crash.log("restored idle.db over the stopped service's database (the old one kept)")
    shown = APPEND_ONLY[:3] + ["tax_returns", "return_versions", "idempotency_keys"]
    print("backup            " + " ".join(f"{t[:16]:>17}" for t in shown) + "  (rows in the backup / live at the end)")
    for r in report:
        print(f"{r['backup']:<17} " + " ".join(
            f"{str(r['rows'][t]['backup']) + '/' + str(r['rows'][t]['live']):>17}" for t in shown))
    with open(os.path.join(args.work, "backup-result.json"), "w") as f:
        import json
        json.dump({"backups": report, "failures": failures,
                   "verdict": "FAIL" if failures else "PASS"}, f, indent=2)
    if failures:
        print("FAIL backup under load:\n  " + "\n  ".join(failures[:50]))
        return 1
    print(f"PASS backup under load: {len(backups)} backups ({args.backups} while {args.clients} clients wrote, "
          f"1 idle) restored with roomtax restore, each passing roomtax check, holding every request "
          f"acknowledged before it and no row the live database lacks; the idle one equal row for row")
    return 0


if __name__ == "__main__":
    sys.exit(main())
