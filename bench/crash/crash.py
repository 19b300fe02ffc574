#!/usr/bin/env python3
"""Crash consistency of roomtax under kill -9 (driven by bench/crash/run.sh).

Python 3 standard library only. The database (a SQLite file, or a fresh PostgreSQL
database with the two roles) is prepared by run.sh; this program:

1. loads the demo (`roomtax demo`), starts `roomtax serve`, signs the clerk-treasurers
   of Montello and Hayward in and registers payors for each client;
2. runs CLIENTS threads that file returns (`POST .../payors/{p}/returns`) and record
   payments (`POST .../payors/{p}/payments`), each request with its own
   Idempotency-Key, and record every acknowledged (2xx) answer with its id;
3. kills the server with SIGKILL at random moments, CYCLES times, restarting it each
   time; a request that got no answer is retried with the same key and body until it
   is acknowledged. A retry answered 409 `idempotency_key_in_progress` is retried once
   the lease has run out (since 2026-12-03 the claim is in the work's own transaction,
   so a killed process leaves none and this should not happen; a claim left in progress
   would be taken over after the lease);
4. verifies: every acknowledged filing and payment is present exactly once, read back
   through the API (the payor's obligations and the return's versions; the statement
   of account's payments), nothing is present that was not acknowledged, a replay of
   acknowledged keys answers the same id, every journal sums to zero, every payment
   and every return version has its journal, no claim is left in progress, and
   `roomtax check` passes. Prints PASS or FAIL with what differed and writes
   result.json into the work folder.
"""

import argparse
import http.client
import json
import math
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse
from datetime import datetime
from zoneinfo import ZoneInfo

# The server's idempotency lease (ROOMTAX_IDEMPOTENCY_LEASE_SECS; default 5 minutes,
# domain::idempotency::LEASE_MINUTES). run.sh --short sets 20 s.
LEASE_SECONDS = int(os.environ.get("ROOMTAX_IDEMPOTENCY_LEASE_SECS", 5 * 60))
PERIODS = [f"{y}-Q{q}" for y in range(2021, 2027) for q in range(1, 5)][:-1]  # to 2026-Q3
MUNICIPALITIES = ["montello", "hayward"]


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


class Server:
    """`roomtax serve` as a child process on a port the system picks."""

    def __init__(self, binary, work, env):
        self.binary, self.work, self.env = binary, work, env
        self.proc = None
        self.addr = None
        self.generation = 0
        self.up = threading.Event()
        self.starts = 0

    def start(self):
        err = open(os.path.join(self.work, f"serve-{self.starts}.log"), "w")
        self.proc = subprocess.Popen(
            [self.binary, "serve"], stdout=subprocess.PIPE, stderr=err, env=self.env, text=True
        )
        self.starts += 1
        deadline = time.time() + 120
        for line in self.proc.stdout:
            if line.startswith("listening on http://"):
                self.addr = line.strip()[len("listening on http://"):]
                break
            if time.time() > deadline:
                break
        if not self.addr or self.proc.poll() is not None:
            raise SystemExit(f"the server did not start (see {err.name})")
        # Keep draining stdout so the child never blocks on it.
        threading.Thread(target=lambda p=self.proc: [None for _ in p.stdout], daemon=True).start()
        while time.time() < deadline:
            try:
                if request(self.addr, "GET", "/readyz", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.05)
        self.generation += 1
        self.up.set()

    def kill9(self):
        self.up.clear()
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def request(addr, method, path, body=None, token=None, key=None, timeout=30):
    host, port = addr.rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
    headers = {"Connection": "close"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if key:
        headers["Idempotency-Key"] = f'"{key}"'
    try:
        conn.request(method, path, body=data, headers=headers)
        res = conn.getresponse()
        raw = res.read()
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode(errors="replace")
        return res.status, parsed, dict(res.getheaders())
    finally:
        conn.close()


class Run:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.lock = threading.Lock()
        self.acked = {}  # key -> record
        self.failures = []
        self.deferred = []  # (op, first_sent)
        self.stats = {"requests": 0, "connection_errors": 0, "retried_then_acked": 0,
                      "taken_over_after_lease": 0, "server_errors": 0}
        self.stop = threading.Event()
        self.tokens = {}
        self.today = datetime.now(ZoneInfo("America/Chicago")).date().isoformat()

    def fail(self, what):
        with self.lock:
            self.failures.append(what)
        log(f"FAIL: {what}")

    # ---- setup ---------------------------------------------------------------------
    def setup(self, server, password):
        for m in MUNICIPALITIES:
            st, body, _ = request(server.addr, "POST", "/v1/auth/token",
                                  {"email": f"clerk@{m}.demo", "password": password})
            if st != 200:
                raise SystemExit(f"sign-in of clerk@{m}.demo: {st} {body}")
            self.tokens[m] = body["access_token"]
        self.clients = []
        for c in range(self.args.clients):
            m = MUNICIPALITIES[c % 2]
            payors = []
            for i in range(self.args.payors):
                st, body, _ = request(server.addr, "POST", f"/v1/municipalities/{m}/payors", {
                    "legal_name": f"Crash Test Lodging {c}-{i} LLC",
                    "mailing_address": f"{i} Lake Street, {m.title()}, WI",
                    "annual_election": "calendar",
                }, token=self.tokens[m])
                if st != 201:
                    raise SystemExit(f"registering a payor in {m}: {st} {body}")
                payors.append(body["id"])
            ops = []
            n = 0
            for period in PERIODS:
                for p in payors:
                    n += 1
                    gross = self.rng.randint(0, 5_000_000)
                    ops.append({"kind": "filing", "m": m, "payor": p, "period": period,
                                "key": f"crash-{self.args.seed}-c{c}-{n}",
                                "path": f"/v1/municipalities/{m}/payors/{p}/returns",
                                "body": {"period": period,
                                         "gross_receipts": f"{gross // 100}.{gross % 100:02d}",
                                         "exemptions": [],
                                         "signer": {"name": "Casey Crash", "title": "Owner"},
                                         "attested": True}})
                    if self.rng.random() < 0.6:
                        n += 1
                        amount = self.rng.randint(1, 300_000)
                        key = f"crash-{self.args.seed}-c{c}-{n}"
                        ops.append({"kind": "payment", "m": m, "payor": p, "key": key,
                                    "path": f"/v1/municipalities/{m}/payors/{p}/payments",
                                    "body": {"received_on": self.today,
                                             "amount": f"{amount // 100}.{amount % 100:02d}",
                                             "method": "check", "reference": key}})
            self.clients.append({"m": m, "payors": payors, "ops": ops})

    # ---- load ----------------------------------------------------------------------
    def send(self, server, op):
        """One attempt: 'acked', 'lost' (no answer), 'in_progress', or 'refused'."""
        server.up.wait()
        addr = server.addr
        with self.lock:
            self.stats["requests"] += 1
        # --fault retry-without-key: a client that forgets its key on retries, to show
        # that the verification catches what a crash then does (a double payment).
        key = None if self.args.fault == "retry-without-key" and op.get("attempts") else op["key"]
        try:
            st, body, headers = request(addr, "POST", op["path"], op["body"],
                                        token=self.tokens[op["m"]], key=key)
        except (OSError, http.client.HTTPException):
            with self.lock:
                self.stats["connection_errors"] += 1
            return "lost"
        if 200 <= st < 300:
            rec = {"kind": op["kind"], "m": op["m"], "payor": op["payor"], "id": body["id"],
                   "status": st, "attempts": op.get("attempts", 0) + 1, "key": op["key"]}
            if op["kind"] == "filing":
                rec["period"] = op["period"]
                rec["gross"] = op["body"]["gross_receipts"]
            else:
                rec["amount"] = op["body"]["amount"]
            with self.lock:
                if op["key"] in self.acked:
                    self.failures.append(f"key {op['key']} acknowledged twice")
                self.acked[op["key"]] = rec
                if rec["attempts"] > 1:
                    self.stats["retried_then_acked"] += 1
            return "acked"
        if st == 409 and isinstance(body, dict) and "idempotency_key_in_progress" in json.dumps(body):
            return "in_progress"
        if st >= 500:
            with self.lock:
                self.stats["server_errors"] += 1
            return "lost"
        self.fail(f"{op['kind']} {op['key']}: unexpected {st} {json.dumps(body)[:300]}")
        return "refused"

    def client(self, server, spec):
        for op in spec["ops"]:
            if self.stop.is_set():
                return
            op["first_sent"] = time.time()
            op["attempts"] = 0
            while True:
                outcome = self.send(server, op)
                op["attempts"] += 1
                if outcome == "lost":
                    # The server died (or is starting): wait for the next one, same key.
                    gen = server.generation
                    while server.generation == gen and not server.up.is_set():
                        time.sleep(0.02)
                    time.sleep(0.02)
                    continue
                if outcome == "in_progress":
                    with self.lock:
                        self.deferred.append(op)
                break

    # ---- verification --------------------------------------------------------------
    def verify_api(self, server):
        by_payor = {}
        for rec in self.acked.values():
            by_payor.setdefault((rec["m"], rec["payor"]), []).append(rec)
        filings = payments = 0
        for spec in self.clients:
            m = spec["m"]
            tok = self.tokens[m]
            for p in spec["payors"]:
                recs = by_payor.get((m, p), [])
                want_returns = {r["period"]: r for r in recs if r["kind"] == "filing"}
                want_pay = {r["id"]: r for r in recs if r["kind"] == "payment"}
                # The range is of due dates: 2026-Q3's is in October (every
                # period of PERIODS is due by the end of 2026).
                st, body, _ = request(server.addr, "GET",
                                      f"/v1/municipalities/{m}/payors/{p}/obligations"
                                      f"?from=2021-01-01&to=2026-12-31", token=tok)
                if st != 200:
                    self.fail(f"obligations of {p}: {st} {body}")
                    continue
                seen = {}
                for o in body["items"]:
                    rid = o.get("return_id")
                    if rid:
                        if o["period"] in seen:
                            self.fail(f"{m}/{p} {o['period']}: two returns listed")
                        seen[o["period"]] = rid
                for period, rid in seen.items():
                    if len(period) == 4:
                        continue  # an annual return: none are filed here
                    want = want_returns.get(period)
                    if want is None:
                        self.fail(f"{m}/{p} {period}: return {rid} on file, never acknowledged")
                    elif want["id"] != rid:
                        self.fail(f"{m}/{p} {period}: return {rid} on file, {want['id']} acknowledged")
                for period, want in want_returns.items():
                    filings += 1
                    if period not in seen:
                        self.fail(f"{m}/{p} {period}: acknowledged return {want['id']} missing")
                        continue
                    st, vbody, _ = request(server.addr, "GET",
                                           f"/v1/municipalities/{m}/payors/{p}/returns/{want['id']}/versions",
                                           token=tok)
                    items = vbody.get("items", vbody) if isinstance(vbody, dict) else vbody
                    if st != 200 or not isinstance(items, list) or len(items) != 1:
                        self.fail(f"{m}/{p} return {want['id']}: versions {st} {str(vbody)[:200]}")
                    elif items[0].get("gross_receipts") != want["gross"]:
                        self.fail(f"{m}/{p} return {want['id']}: gross {items[0].get('gross_receipts')} != {want['gross']}")
                st, acct, _ = request(server.addr, "GET",
                                      f"/v1/municipalities/{m}/payors/{p}/account", token=tok)
                if st != 200:
                    self.fail(f"account of {p}: {st} {acct}")
                    continue
                got = {}
                for pay in acct["payments"]:
                    got.setdefault(pay["id"], []).append(pay)
                for pid, lst in got.items():
                    if len(lst) != 1:
                        self.fail(f"{m}/{p}: payment {pid} listed {len(lst)} times")
                    if pid not in want_pay:
                        self.fail(f"{m}/{p}: payment {pid} (reference {lst[0]['reference']}) never acknowledged")
                refs = [pay["reference"] for pay in acct["payments"]]
                for r in set(refs):
                    if refs.count(r) > 1:
                        self.fail(f"{m}/{p}: reference {r} paid {refs.count(r)} times")
                for pid, want in want_pay.items():
                    payments += 1
                    lst = got.get(pid)
                    if not lst:
                        self.fail(f"{m}/{p}: acknowledged payment {pid} missing")
                    elif lst[0]["amount"] != want["amount"] or lst[0]["reference"] != want["key"]:
                        self.fail(f"{m}/{p}: payment {pid} differs: {lst[0]}")
        # Replays of acknowledged keys answer the first response (same id), writing nothing.
        sample = self.rng.sample(sorted(self.acked), min(30, len(self.acked)))
        ops = {op["key"]: op for spec in self.clients for op in spec["ops"]}
        for key in sample:
            op = ops[key]
            st, body, _ = request(server.addr, "POST", op["path"], op["body"],
                                  token=self.tokens[op["m"]], key=key)
            if st != self.acked[key]["status"] or not isinstance(body, dict) or body.get("id") != self.acked[key]["id"]:
                self.fail(f"replay of {key}: {st} {str(body)[:200]} (first: {self.acked[key]['id']})")
        return filings, payments

    def verify_sql(self, query):
        """Ledger invariants straight from the tables (every tenant: no RLS in the way)."""
        checks = {
            "journals not summing to zero":
                "SELECT count(*) FROM (SELECT journal_id FROM ledger_lines "
                "GROUP BY municipality_id, journal_id HAVING sum(amount_cents) <> 0) x",
            "journals without lines":
                "SELECT count(*) FROM ledger_journals j WHERE NOT EXISTS (SELECT 1 FROM ledger_lines l "
                "WHERE l.municipality_id = j.municipality_id AND l.journal_id = j.id)",
            "payments without exactly one payment journal":
                "SELECT count(*) FROM payments p WHERE (SELECT count(*) FROM ledger_journals j "
                "WHERE j.municipality_id = p.municipality_id AND j.kind = 'payment' "
                "AND j.cause_type = 'payment' AND j.cause_id = p.id) <> 1",
            "return versions without exactly one journal":
                "SELECT count(*) FROM return_versions v WHERE (SELECT count(*) FROM ledger_journals j "
                "WHERE j.municipality_id = v.municipality_id AND j.cause_type = 'return_version' "
                "AND j.kind <> 'credit_applied' "
                "AND j.cause_id = v.return_id || ':' || CAST(v.version AS TEXT)) <> 1",
            "returns without a version":
                "SELECT count(*) FROM tax_returns r WHERE NOT EXISTS (SELECT 1 FROM return_versions v "
                "WHERE v.municipality_id = r.municipality_id AND v.return_id = r.id)",
            "idempotency claims left in progress":
                "SELECT count(*) FROM idempotency_keys WHERE state = 'in_progress'",
        }
        for what, sql in checks.items():
            n = int(query(sql))
            if n:
                self.fail(f"database: {n} {what}")
        keys = [f"'{k}'" for k, r in self.acked.items() if r["kind"] == "payment"]
        n = int(query("SELECT count(*) FROM payments WHERE reference LIKE 'crash-%'"))
        if n != len(keys):
            self.fail(f"database: {n} crash-test payments stored, {len(keys)} acknowledged")
        return n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--backend", choices=["sqlite", "postgres"], required=True)
    ap.add_argument("--cycles", type=int, default=20)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--payors", type=int, default=None,
                    help="payors per client (default: enough that the plan outlasts the cycles "
                         "at 1,500 requests a second; a kill after every client sent its whole "
                         "plan fails the run)")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--min-load", type=float, default=0.3, help="least seconds of load before a kill")
    ap.add_argument("--max-load", type=float, default=2.5, help="most seconds of load before a kill")
    ap.add_argument("--fault", choices=["retry-without-key"],
                    help="break the client on purpose (the run must then FAIL)")
    ap.add_argument("--sql-url", help="PostgreSQL URL that reads every row (superuser), for the SQL checks")
    args = ap.parse_args()
    env = dict(os.environ)
    env.update({"ROOMTAX_HOST": "127.0.0.1", "ROOMTAX_PORT": "0",
                "ROOMTAX_KEYS_DIR": os.path.join(args.work, "keys"),
                "ROOMTAX_ACCESS_TOKEN_TTL_SECS": "3600", "ROOMTAX_LOG": "warn"})
    t0 = time.time()
    out = subprocess.run([args.bin, "demo"], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"roomtax demo failed: {out.stderr}")
    password = next(line.split(": ", 1)[1].strip() for line in out.stdout.splitlines()
                    if line.startswith("Demo accounts (password shown only now): "))
    if args.payors is None:
        # Each payor's plan is a filing per period and a payment after 60 % of them; the
        # load lasts up to max_load seconds a cycle, and a release build on this machine
        # acknowledges about 1,000 a second (session 33): plan for 1,500 over the longest.
        per_payor = len(PERIODS) * 1.6
        wanted = (args.cycles + 1) * args.max_load * 1500
        args.payors = max(6, math.ceil(wanted / (args.clients * per_payor)))
    run = Run(args)
    server = Server(args.bin, args.work, env)
    server.start()
    run.setup(server, password)
    log(f"{args.backend}: {args.clients} clients, {args.clients * args.payors} payors, "
        f"{sum(len(c['ops']) for c in run.clients)} requests planned, {args.cycles} kill -9 cycles (seed {args.seed})")
    threads = [threading.Thread(target=run.client, args=(server, spec), daemon=True) for spec in run.clients]
    for t in threads:
        t.start()
    kills = []
    for cycle in range(1, args.cycles + 1):
        time.sleep(run.rng.uniform(args.min_load, args.max_load))
        before = len(run.acked)
        if not any(t.is_alive() for t in threads):
            # A kill of an idle server tests nothing: the plan must outlast the cycles.
            run.fail(f"cycle {cycle}: every client had sent its whole plan before this kill "
                     f"({before} acknowledged); raise --payors")
        server.kill9()
        kills.append(time.time())
        time.sleep(run.rng.uniform(0, 0.3))
        server.start()
        log(f"cycle {cycle}: killed after {before} acknowledged; restarted")
    time.sleep(run.rng.uniform(args.min_load, args.max_load))
    run.stop.set()
    for t in threads:
        t.join()
    # Claims left in progress by a killed process: retried once their lease has run out.
    deferred = list(run.deferred)
    if deferred:
        until = max(op["first_sent"] for op in deferred) + LEASE_SECONDS + 3
        log(f"{len(deferred)} request(s) answered 409 in progress (their claim died with a server): "
            f"waiting {max(0, until - time.time()):.0f} s for the lease, then retrying them")
        while time.time() < until:
            time.sleep(1)
        for op in deferred:
            outcome = run.send(server, op)
            op["attempts"] += 1
            if outcome == "acked":
                run.stats["taken_over_after_lease"] += 1
            else:
                run.fail(f"{op['kind']} {op['key']}: after the lease the retry was {outcome}")
    filings, payments = run.verify_api(server)
    if args.backend == "sqlite":
        path = urllib.parse.unquote(env["DATABASE_URL"][len("sqlite://"):])
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        query = lambda sql: db.execute(sql).fetchone()[0]  # noqa: E731
    else:
        def query(sql):
            return subprocess.run(["psql", args.sql_url, "-X", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql],
                                  check=True, capture_output=True, text=True).stdout.strip()
    stored_payments = run.verify_sql(query)
    server.stop()
    check = subprocess.run([args.bin, "check"], env=env, capture_output=True, text=True)
    if check.returncode != 0:
        run.fail(f"roomtax check: {check.stdout[-2000:]}{check.stderr[-2000:]}")
    result = {
        "backend": args.backend, "seed": args.seed, "cycles": args.cycles, "kills": len(kills),
        "clients": args.clients, "acknowledged_filings": filings, "acknowledged_payments": payments,
        "stored_crash_payments": stored_payments, **run.stats,
        "seconds": round(time.time() - t0, 1), "failures": run.failures,
        "verdict": "PASS" if not run.failures else "FAIL",
    }
    with open(os.path.join(args.work, "result.json"), "w") as f:
        json.dump(result, f, indent=2)
    verdict = "each present exactly once" if not run.failures else "verified"
    summary = (f"{args.backend}: {len(kills)} kill -9 cycles, {filings} filings and {payments} payments "
               f"acknowledged, {verdict}; {run.stats['requests']} requests, "
               f"{run.stats['connection_errors']} lost to a kill, {run.stats['retried_then_acked']} "
               f"acknowledged on a retry (of which {run.stats['taken_over_after_lease']} after "
               f"the {LEASE_SECONDS} s lease); roomtax check {'passed' if check.returncode == 0 else 'FAILED'}; "
               f"{result['seconds']} s")
    if run.failures:
        print(f"FAIL {summary}\n  " + "\n  ".join(run.failures[:50]))
        return 1
    print(f"PASS {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
