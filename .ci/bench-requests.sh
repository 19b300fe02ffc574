#!/usr/bin/env bash
# Throughput of /healthz, GET /v1/me, a payor read (as the clerk) and a quote, with wrk
# -t2 -c32 -d10s each, against a demo database (PostgreSQL: the two roles of
# deploy/postgres-init, as in production). Needs wrk, curl, python3, psql.
# usage: .ci/bench-requests.sh BINARY sqlite|postgres LABEL
set -euo pipefail
bin=$1; backend=$2; label=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/roomtax-bench.XXXX")
port=$((18000 + RANDOM % 1000))
export ROOMTAX_KEYS_DIR=$work/keys ROOMTAX_PORT=$port ROOMTAX_ACCESS_TOKEN_TTL_SECS=3600 ROOMTAX_LOG=warn
suffix="$$_$RANDOM"
if [[ $backend == sqlite ]]; then
  export DATABASE_URL="sqlite://$work/roomtax.db"
  unset ROOMTAX_MIGRATION_DATABASE_URL || true
else
  db=roomtax_bench_$suffix owner=roomtax_bench_owner_$suffix app=roomtax_bench_app_$suffix
  POSTGRES_USER=postgres POSTGRES_DB=postgres PGHOST=127.0.0.1 ROOMTAX_DB_NAME=$db ROOMTAX_OWNER_ROLE=$owner ROOMTAX_APP_ROLE=$app \
    ROOMTAX_OWNER_DB_PASSWORD=ownerpw ROOMTAX_APP_DB_PASSWORD=apppw bash "$(dirname "${BASH_SOURCE[0]}")/../deploy/postgres-init/01-roles.sh" >/dev/null
  export DATABASE_URL="postgres://$app:apppw@127.0.0.1:5432/$db"
  export ROOMTAX_MIGRATION_DATABASE_URL="postgres://$owner:ownerpw@127.0.0.1:5432/$db"
fi
"$bin" migrate >/dev/null 2>&1
pw=$("$bin" demo 2>/dev/null | sed -n 's/.*password shown only now): //p')
"$bin" serve >"$work/serve.log" 2>&1 &
spid=$!
for i in $(seq 50); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
base="http://127.0.0.1:$port"
token=$(curl -fs -H 'content-type: application/json' -d "{\"email\":\"clerk@montello.demo\",\"password\":\"$pw\"}" "$base/v1/auth/token" | python3 -c 'import sys,json;print(json.load(sys.stdin)["access_token"])')
payor=$(curl -fs -H "authorization: Bearer $token" "$base/v1/municipalities/montello/payors" | python3 -c 'import sys,json;print(json.load(sys.stdin)["items"][0]["id"])')
cat > "$work/quote.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"period":"2026-Q1","gross_receipts":"12345.67"}'
LUA
curl -fs -o /dev/null -w 'quote status %{http_code}\n' -H 'content-type: application/json' -d '{"period":"2026-Q1","gross_receipts":"12345.67"}' "$base/v1/municipalities/montello/quotes"
curl -fs -o /dev/null -w 'payor status %{http_code}\n' -H "authorization: Bearer $token" "$base/v1/municipalities/montello/payors/$payor"
curl -fs -o /dev/null -w 'me status %{http_code}\n' -H "authorization: Bearer $token" "$base/v1/me"
rps() { awk '/Requests\/sec/ {print $2}'; }
errs() { awk '/Non-2xx|Socket errors/ {print}'; }
declare -A R
for name in healthz me payor quote; do
  case $name in
    healthz) out=$(wrk -t2 -c32 -d10s "$base/healthz") ;;
    me) out=$(wrk -t2 -c32 -d10s -H "Authorization: Bearer $token" "$base/v1/me") ;;
    payor) out=$(wrk -t2 -c32 -d10s -H "Authorization: Bearer $token" "$base/v1/municipalities/montello/payors/$payor") ;;
    quote) out=$(wrk -t2 -c32 -d10s -s "$work/quote.lua" "$base/v1/municipalities/montello/quotes") ;;
  esac
  R[$name]=$(echo "$out" | rps)
  e=$(echo "$out" | errs); [[ -n $e ]] && echo "  $name: $e"
done
share=$(python3 -c "print(f'{100*${R[me]}/${R[healthz]}:.1f}')")
echo "$label $backend: healthz ${R[healthz]} | me ${R[me]} (${share}% of healthz) | payor ${R[payor]} | quote ${R[quote]} req/s"
kill $spid; wait $spid 2>/dev/null || true
if [[ $backend == postgres ]]; then
  psql postgres://postgres@127.0.0.1:5432/postgres -q -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "DROP ROLE IF EXISTS $app" -c "DROP ROLE IF EXISTS $owner" >/dev/null
fi
rm -rf "$work"
