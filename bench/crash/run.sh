#!/usr/bin/env bash
# Crash consistency under kill -9: concurrent clients file returns and record payments
# (each with its own Idempotency-Key) while the server is killed with SIGKILL at random
# moments and restarted; unanswered requests are retried with the same key; then every
# acknowledged filing and payment must be present exactly once, nothing half-written,
# every journal summing to zero, `roomtax check` passing. See bench/crash/README.md.
#
#   bench/crash/run.sh [--backend sqlite|postgres] [--cycles N] [--short] [--clients K]
#                      [--seed S] [--keep] [--fault retry-without-key]
#
#   --backend   sqlite (default: a fresh file) or postgres (a fresh database and two fresh
#               roles made by deploy/postgres-init/01-roles.sh, dropped afterwards)
#   --cycles    kill -9 cycles (default 20); --short: 3 cycles and a 20 s idempotency
#               lease (CI; the full run keeps the production default of 5 minutes)
#   --lease S   the server's ROOMTAX_IDEMPOTENCY_LEASE_SECS (default 300)
#   --keep      keep the work folder (database, server logs, result.json)
#   --fault retry-without-key   retries forget their Idempotency-Key: the run must FAIL
#               (it shows the verification catches duplicates)
# Settings: ROOMTAX_BIN (default target/debug/roomtax, built with `cargo build` when
# missing), ROOMTAX_CRASH_PG_URL (superuser server URL, default
# postgres://postgres@127.0.0.1:5432/postgres). Needs python3 (standard library), psql
# for postgres. Exit 0 on PASS, 1 on FAIL.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

backend=sqlite cycles=20 clients=4 seed="" keep="" fault="" lease=300
while (($#)); do
  case $1 in
    --backend) backend=$2; shift 2 ;;
    --cycles) cycles=$2; shift 2 ;;
    --short) cycles=3 lease=20; shift ;;
    --lease) lease=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --fault) fault=$2; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ $backend == sqlite || $backend == postgres ]] || { echo "--backend sqlite|postgres" >&2; exit 2; }

bin=${ROOMTAX_BIN:-target/debug/roomtax}
[[ -x $bin ]] || cargo build --locked
bin=$(realpath "$bin")
pg_server=${ROOMTAX_CRASH_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
work=$(mktemp -d "${TMPDIR:-/tmp}/roomtax-crash.XXXXXX")
suffix="$$_$RANDOM"
db="" owner="" app=""
cleanup() {
  if [[ -n $db ]]; then
    psql "$pg_server" -X -q -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" \
      -c "DROP ROLE IF EXISTS $app" -c "DROP ROLE IF EXISTS $owner" >/dev/null 2>&1 || true
  fi
  if [[ -n $keep ]]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

unset ROOMTAX_CONFIG ROOMTAX_DATABASE_URL
sql_url=""
if [[ $backend == sqlite ]]; then
  export DATABASE_URL="sqlite://$work/roomtax.db"
  unset ROOMTAX_MIGRATION_DATABASE_URL
else
  # A fresh database with the two roles of production (deploy/postgres-init).
  db=roomtax_crash_$suffix owner=roomtax_crash_owner_$suffix app=roomtax_crash_app_$suffix
  hostport=${pg_server#*://}; hostport=${hostport#*@}; hostport=${hostport%%/*}
  superuser=${pg_server#*://}; superuser=${superuser%%@*}; superuser=${superuser%%:*}
  pw_owner="owner$RANDOM$RANDOM" pw_app="app$RANDOM$RANDOM"
  PGHOST=${hostport%%:*} PGPORT=$([[ $hostport == *:* ]] && echo "${hostport##*:}" || echo 5432) \
  POSTGRES_USER=$superuser POSTGRES_DB=postgres ROOMTAX_DB_NAME=$db \
  ROOMTAX_OWNER_ROLE=$owner ROOMTAX_APP_ROLE=$app \
  ROOMTAX_OWNER_DB_PASSWORD=$pw_owner ROOMTAX_APP_DB_PASSWORD=$pw_app \
    bash deploy/postgres-init/01-roles.sh >/dev/null
  export DATABASE_URL="postgres://$app:$pw_app@$hostport/$db"
  export ROOMTAX_MIGRATION_DATABASE_URL="postgres://$owner:$pw_owner@$hostport/$db"
  sql_url="${pg_server%/*}/$db"
fi

export ROOMTAX_IDEMPOTENCY_LEASE_SECS=$lease
args=(--bin "$bin" --work "$work" --backend "$backend" --cycles "$cycles" --clients "$clients")
[[ -n $seed ]] && args+=(--seed "$seed")
[[ -n $sql_url ]] && args+=(--sql-url "$sql_url")
[[ -n $fault ]] && args+=(--fault "$fault")
python3 bench/crash/crash.py "${args[@]}"
