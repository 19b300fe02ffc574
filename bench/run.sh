#!/usr/bin/env bash
# The roomtax benchmark: seeds its own database at a scale, starts the binary, measures
# every scenario with wrk beside the anchors (/healthz of the same binary; on PostgreSQL,
# pgbench running the SQL of a filing), prints ratios, p50/p99 latency and peak resident
# memory, and writes bench/results/<date>-<backend>[-<label>].json and .md.
# See bench/README.md.
#
#   bench/run.sh --backend sqlite|postgres --scale S [--binary PATH] [--duration SECS]
#                [--clients N] [--threads T] [--only a,b] [--label L] [--results DIR] [--keep]
#                [--no-half-peak] [--no-vacuum] [--pg-sslmode M] [--reuse DIR]
#
#   --scale     1 = 50 municipalities x 2,000 payors x the 4 quarters of 2025 (a return
#               and a payment each); fractions shrink the payors (0.02: 1 x 2,000),
#               multiples add municipalities (2: 100 x 2,000)
#   --binary    the roomtax binary (default: target/release/roomtax, built with
#               `cargo build --release --locked`, about 8 minutes here, when missing)
#   --duration  seconds of load per scenario (default 20); --clients: wrk connections
#               and pgbench clients (default 32); --threads: wrk threads (default 2)
#   --only      only these scenarios (healthz always runs: every ratio is taken to it;
#               `pgbench` names the PostgreSQL anchor alone)
#   --keep      keep the work folder (database, server logs, wrk output)
#   --no-half-peak  skip the second pass of each scenario, paced to half the rate just
#               measured (its p99 is the target "p99 under 20 ms at half the peak")
#   --no-vacuum PostgreSQL: measure the database as seeded (by default the seed, or the
#               reused database, gets a VACUUM (ANALYZE) first: what autovacuum does after
#               a bulk load, and this machine's PostgreSQL runs with autovacuum off)
#   --pg-sslmode  libpq's sslmode for the service and pgbench alike (default disable, as
#               between the two containers of docker-compose.yml; prefer: TLS where the
#               server offers it, as Debian's PostgreSQL does on 127.0.0.1)
#   --reuse DIR measure again on the database a --keep run left in DIR (its seed.json,
#               ids.csv and roomtax.db, or on PostgreSQL pg.env naming the kept database
#               and roles) instead of seeding anew; writes carry on after the returns and
#               payments earlier runs filed. --keep on PostgreSQL keeps the database and
#               its two roles (drop them by hand: the commands are in pg.env)
# Settings: ROOMTAX_BENCH_PG_URL (superuser URL, default
# postgres://postgres@127.0.0.1:5432/postgres). Installs Debian's wrk when absent.
# Exit 0 when every scenario ran with no non-2xx answer and no socket error.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

backend="" scale="" binary="" duration=20 clients=32 threads=2 only="" label="" keep="" half_peak=yes reuse="" vacuum=yes pg_sslmode=disable
results=bench/results
while (($#)); do
  case $1 in
    --backend) backend=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --label) label=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --no-half-peak) half_peak=no; shift ;;
    --no-vacuum) vacuum=no; shift ;;
    --pg-sslmode) pg_sslmode=$2; shift 2 ;;
    --reuse) reuse=$(realpath "$2"); keep=1; shift 2 ;;
    -h|--help) sed -n '2,36p' "$0"; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ $backend == sqlite || $backend == postgres ]] || { echo "--backend sqlite|postgres" >&2; exit 2; }
[[ -n $scale ]] || { echo "--scale S is required (1 = 50 municipalities x 2,000 payors)" >&2; exit 2; }

if ! command -v wrk >/dev/null 2>&1; then
  echo "wrk is missing: installing Debian's wrk (apt-get)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
if [[ -z $binary ]]; then
  binary=target/release/roomtax
  [[ -x $binary ]] || cargo build --release --locked
fi
binary=$(realpath "$binary")
pg_server=${ROOMTAX_BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
if [[ -n $reuse ]]; then
  if [[ $backend == sqlite ]]; then needed="seed.json ids.csv roomtax.db"; else needed="seed.json ids.csv pg.env"; fi
  for f in $needed; do
    [[ -e $reuse/$f ]] || { echo "--reuse $reuse: no $f there (a run with --keep leaves it)" >&2; exit 2; }
  done
  work=$reuse
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/roomtax-bench.XXXXXX")
fi
suffix="$$_$RANDOM"
db="" owner="" app=""
cleanup() {
  if [[ -n $db && -z $keep ]]; then
    psql "$pg_server" -X -q -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" \
      -c "DROP ROLE IF EXISTS $app" -c "DROP ROLE IF EXISTS $owner" >/dev/null 2>&1 || true
  fi
  if [[ -n $keep ]]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

unset ROOMTAX_CONFIG ROOMTAX_DATABASE_URL
args=(--bin "$binary" --work "$work" --backend "$backend" --scale "$scale" --duration "$duration"
      --clients "$clients" --threads "$threads" --results "$results")
[[ -n $only ]] && args+=(--only "$only")
[[ -n $label ]] && args+=(--label "$label")
[[ $half_peak == no ]] && args+=(--no-half-peak)
[[ $vacuum == no ]] && args+=(--no-vacuum)
[[ -n $reuse ]] && args+=(--reuse)
if [[ $backend == sqlite ]]; then
  export DATABASE_URL="sqlite://$work/roomtax.db"
  unset ROOMTAX_MIGRATION_DATABASE_URL
else
  command -v pgbench >/dev/null || { echo "pgbench is missing (Debian postgresql-client)" >&2; exit 2; }
  hostport=${pg_server#*://}; hostport=${hostport#*@}; hostport=${hostport%%/*}
  if [[ -n $reuse ]]; then
    # shellcheck disable=SC1091
    source "$work/pg.env"
  else
    # A fresh database with the two roles of production (deploy/postgres-init), as bench/crash.
    db=roomtax_bench_$suffix owner=roomtax_bench_owner_$suffix app=roomtax_bench_app_$suffix
    superuser=${pg_server#*://}; superuser=${superuser%%@*}; superuser=${superuser%%:*}
    pw_owner="owner$RANDOM$RANDOM" pw_app="app$RANDOM$RANDOM"
    PGHOST=${hostport%%:*} PGPORT=$([[ $hostport == *:* ]] && echo "${hostport##*:}" || echo 5432) \
    POSTGRES_USER=$superuser POSTGRES_DB=postgres ROOMTAX_DB_NAME=$db \
    ROOMTAX_OWNER_ROLE=$owner ROOMTAX_APP_ROLE=$app \
    ROOMTAX_OWNER_DB_PASSWORD=$pw_owner ROOMTAX_APP_DB_PASSWORD=$pw_app \
      bash deploy/postgres-init/01-roles.sh >/dev/null
    if [[ -n $keep ]]; then
      (umask 077; printf 'db=%s owner=%s app=%s pw_owner=%s pw_app=%s\n# to drop: psql %s -c "DROP DATABASE %s WITH (FORCE)" -c "DROP ROLE %s" -c "DROP ROLE %s"\n' \
        "$db" "$owner" "$app" "$pw_owner" "$pw_app" "$pg_server" "$db" "$app" "$owner" > "$work/pg.env")
    fi
  fi
  # The service and pgbench connect alike: without TLS by default, as in docker-compose.yml
  # (the postgres image serves without it; Debian's PostgreSQL offers it on 127.0.0.1 and
  # libpq's default `prefer` takes it): --pg-sslmode prefer measures with it.
  export DATABASE_URL="postgres://$app:$pw_app@$hostport/$db?sslmode=$pg_sslmode"
  export ROOMTAX_MIGRATION_DATABASE_URL="postgres://$owner:$pw_owner@$hostport/$db?sslmode=$pg_sslmode"
  args+=(--sql-url "${pg_server%/*}/$db" --pg-app-url "$DATABASE_URL" --pg-app-role "$app")
fi
python3 bench/bench.py "${args[@]}"
