#!/usr/bin/env bash
# Property-based API testing with schemathesis against the debug binary that the test
# step built: a fresh database with the demo loaded, three passes (anonymous, a
# clerk-treasurer, an operator), --checks all. Any 5xx or any response that breaks the
# document fails. See .ci/README.md.
#
#   .ci/schemathesis.sh sqlite
#   .ci/schemathesis.sh postgres SERVER_URL   (a role that can create databases and roles)
#
# Settings: ROOMTAX_ST (the st executable), ROOMTAX_ST_MAX_EXAMPLES (default 15),
# ROOMTAX_ST_MAX_TIME (seconds per pass, default 30), ROOMTAX_ST_WORKERS (default 1: with more, CPython 3.11 can fail inside hypothesis with "AST constructor recursion depth mismatch", its ast.parse not being thread-safe).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BACKEND=${1:?sqlite or postgres}
PG_SERVER=${2:-}
ST=${ROOMTAX_ST:?path of the schemathesis st executable}
BIN=target/debug/roomtax
MAX_EXAMPLES=${ROOMTAX_ST_MAX_EXAMPLES:-15}
MAX_TIME=${ROOMTAX_ST_MAX_TIME:-30}
WORKERS=${ROOMTAX_ST_WORKERS:-1}

# Excluded checks, each with its reason:
# - ignored_auth: it replays protected operations without the token; this API answers
#   404 (not 401) when an anonymous caller may not know the resource exists (DESIGN §1,
#   "deny by default ... 404, not 403"), which the check reads as an auth bypass.
# - positive_data_acceptance: generated "valid" bodies reference payors, slugs and ids
#   that do not exist; the service rightly answers 404/409/422 for them.
EXCLUDED=(ignored_auth positive_data_acceptance)

[[ -x "$BIN" ]] || { echo "no $BIN: run the test step first"; exit 1; }
WORK="$(mktemp -d "${TMPDIR:-/tmp}/roomtax-st.XXXXXX")"
SERVER_PID=""
PG_DB=""
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  if [[ -n "$PG_DB" ]]; then
    psql "$PG_SERVER" -X -q -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  if [[ -n "${ROOMTAX_ST_KEEP:-}" ]]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export ROOMTAX_HOST=127.0.0.1 ROOMTAX_PORT="$PORT" ROOMTAX_KEYS_DIR="$WORK/keys"
unset ROOMTAX_CONFIG ROOMTAX_DATABASE_URL
case "$BACKEND" in
  sqlite)
    export DATABASE_URL="sqlite://$WORK/st.db"
    unset ROOMTAX_MIGRATION_DATABASE_URL
    ;;
  postgres)
    # Two roles like production: migrations as the owner (the server URL's role), the
    # service as a login role that is neither owner nor superuser, bound by RLS.
    PG_DB="roomtax_st_$$_$RANDOM"
    app_role=roomtax_st_app
    psql "$PG_SERVER" -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE DATABASE $PG_DB;
DO \$\$ BEGIN CREATE ROLE $app_role LOGIN NOSUPERUSER NOBYPASSRLS PASSWORD '$app_role';
EXCEPTION WHEN duplicate_object THEN NULL; END \$\$;
SQL
    owner_url="$(python3 - "$PG_SERVER" "$PG_DB" <<'PY'
import sys, urllib.parse as u
p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/" + sys.argv[2])))
PY
)"
    psql "$owner_url" -X -q -v ON_ERROR_STOP=1 -c \
      "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO $app_role"
    app_url="$(python3 - "$owner_url" "$app_role" <<'PY'
import sys, urllib.parse as u
p = u.urlsplit(sys.argv[1]); host = p.netloc.rsplit("@", 1)[-1]
print(u.urlunsplit(p._replace(netloc=f"{sys.argv[2]}:{sys.argv[2]}@{host}")))
PY
)"
    export DATABASE_URL="$app_url" ROOMTAX_MIGRATION_DATABASE_URL="$owner_url"
    ;;
  *) echo "unknown backend $BACKEND"; exit 2 ;;
esac

# `serve --demo` prints the demo password once, on standard output: capture it there.
"$BIN" serve --demo >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVER_PID=$!
base="http://127.0.0.1:$PORT"
for _ in $(seq 1 100); do
  curl -fsS "$base/readyz" >/dev/null 2>&1 && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/serve.err"; echo "roomtax exited"; exit 1; }
  sleep 0.3
done
curl -fsS "$base/readyz" >/dev/null || { tail -20 "$WORK/serve.err"; exit 1; }
password="$(sed -n 's/^Demo accounts (password shown only now): //p' "$WORK/serve.out")"
[[ -n "$password" ]] || { echo "no demo password in the output of serve --demo"; exit 1; }

token_of() {
  curl -fsS -H 'content-type: application/json' \
    -d "{\"email\":\"$1\",\"password\":\"$password\"}" "$base/v1/auth/token" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])'
}

run_pass() {
  local label=$1; shift
  echo "---- schemathesis on $BACKEND as $label"
  "$ST" run "$base/openapi.json" --url "$base" \
    --checks all --exclude-checks "$(IFS=,; echo "${EXCLUDED[*]}")" \
    --max-examples "$MAX_EXAMPLES" --max-time "$MAX_TIME" --workers "$WORKERS" \
    --request-timeout 10 --seed 7 --no-shrink --suppress-health-check all \
    --warnings off "$@"
}

# The operator before the clerk-treasurer: the clerk's stateful pass may revoke the
# demo grants (list grants -> revoke), after which the operator could not sign in
# (403) and its pass would run without a token.
run_pass anonymous
run_pass operator -H "Authorization: Bearer $(token_of operator@montello.demo)"
run_pass clerk-treasurer -H "Authorization: Bearer $(token_of clerk@montello.demo)"
if grep -q "panicked" "$WORK/serve.err"; then
  grep -m5 "panicked" "$WORK/serve.err"; echo "the server panicked during the run"; exit 1
fi
echo "schemathesis on $BACKEND: three passes clean"
