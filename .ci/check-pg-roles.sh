#!/usr/bin/env bash
# Runs deploy/postgres-init/01-roles.sh (the script docker-compose.yml mounts into the
# postgres container) against the local PostgreSQL under throw-away role and database
# names, then proves what the two-role setup promises:
#   - the owner can create tables; the runtime role gets DML on them through the
#     default privileges, but cannot create objects, TRUNCATE, or switch RLS off;
#   - the runtime role is not superuser, not BYPASSRLS, owns nothing, and row-level
#     security with FORCE hides other tenants' rows from it (fail closed when unset).
# Everything it creates is dropped again, also on failure.
# Usage: .ci/check-pg-roles.sh [SERVER_URL]   (default postgres://postgres@127.0.0.1:5432/postgres)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
server_url="${1:-postgres://postgres@127.0.0.1:5432/postgres}"
suffix="$$_$RANDOM"
db="roomtax_cicheck_${suffix}"
owner="roomtax_cicheck_owner_${suffix}"
app="roomtax_cicheck_app_${suffix}"
init_script="${ROOMTAX_INIT_SCRIPT:-$root/deploy/postgres-init/01-roles.sh}"
pw_owner="ci-owner-${RANDOM}${RANDOM}"
pw_app="ci-app-${RANDOM}${RANDOM}"

# host/port/user of the server URL, for the init script (it connects the way the
# postgres image's entrypoint does: psql with --username and libpq environment).
hostport="${server_url#*://}"; hostport="${hostport#*@}"; hostport="${hostport%%/*}"
export PGHOST="${hostport%%:*}"
export PGPORT="5432"; [[ "$hostport" == *:* ]] && PGPORT="${hostport##*:}"
superuser="${server_url#*://}"; superuser="${superuser%%@*}"; superuser="${superuser%%:*}"

cleanup() {
  psql "$server_url" -q -v ON_ERROR_STOP=0 --no-psqlrc >/dev/null 2>&1 <<SQL || true
DROP DATABASE IF EXISTS "$db" WITH (FORCE);
DROP ROLE IF EXISTS "$app";
DROP ROLE IF EXISTS "$owner";
SQL
}
trap cleanup EXIT

fail() { echo "check-pg-roles: FAIL: $*" >&2; exit 1; }

echo "check-pg-roles: running ${init_script#"$root"/} as ${superuser} on ${PGHOST}:${PGPORT} (database ${db})"
for pass in 1 2; do   # twice: the script must be idempotent
  POSTGRES_USER="$superuser" POSTGRES_DB=postgres ROOMTAX_DB_NAME="$db" \
  ROOMTAX_OWNER_ROLE="$owner" ROOMTAX_APP_ROLE="$app" \
  ROOMTAX_OWNER_DB_PASSWORD="$pw_owner" ROOMTAX_APP_DB_PASSWORD="$pw_app" \
    bash "$init_script" >/dev/null \
    || fail "01-roles.sh failed on run $pass"
done

base="${server_url%/*}"          # postgres://user@host:port
hostpart="${base#*@}"
owner_url="postgres://${owner}:${pw_owner}@${hostpart}/${db}"
app_url="postgres://${app}:${pw_app}@${hostpart}/${db}"
q() { psql "$1" -X -At -v ON_ERROR_STOP=1 -c "$2"; }
# expect_denied URL SQL WHAT: the statement must fail with a permission-type error.
expect_denied() {
  local out
  if out=$(psql "$1" -X -At -v ON_ERROR_STOP=1 -c "$2" 2>&1); then
    fail "$3 was allowed (expected it to be refused)"
  fi
  grep -qiE 'permission denied|must be owner|must be superuser' <<<"$out" \
    || fail "$3 failed for an unexpected reason: $out"
}

attrs=$(q "$server_url" "SELECT rolsuper, rolbypassrls, rolcanlogin, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = '$app'") || fail "cannot query pg_roles"
[[ "$attrs" == "f|f|t|f|f" ]] || fail "runtime role attributes (super|bypassrls|login|createdb|createrole) are $attrs"
attrs=$(q "$server_url" "SELECT rolsuper, rolbypassrls, rolcanlogin FROM pg_roles WHERE rolname = '$owner'") || fail "cannot query pg_roles"
[[ "$attrs" == "f|f|t" ]] || fail "owner role attributes (super|bypassrls|login) are $attrs"
dbowner=$(q "$server_url" "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '$db'") || fail "cannot query pg_database"
[[ "$dbowner" == "$owner" ]] || fail "database owner is '$dbowner', expected $owner"

# The owner migrates: a tenant table with FORCE row-level security.
q "$owner_url" "
CREATE TABLE payors (municipality_id bigint NOT NULL, id bigserial, name text NOT NULL,
                     PRIMARY KEY (municipality_id, id));
ALTER TABLE payors ENABLE ROW LEVEL SECURITY;
ALTER TABLE payors FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON payors
  USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
  WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);
" >/dev/null || fail "the owner role could not create a table with row-level security"

# The runtime role: DML through default privileges, under RLS.
q "$app_url" "BEGIN; SELECT set_config('app.municipality_id', '1', true);
              INSERT INTO payors (municipality_id, name) VALUES (1, 'one'); COMMIT;" >/dev/null \
  || fail "the runtime role could not insert its own tenant's row (default privileges on tables/sequences?)"
q "$app_url" "BEGIN; SELECT set_config('app.municipality_id', '2', true);
              INSERT INTO payors (municipality_id, name) VALUES (2, 'two'); COMMIT;" >/dev/null \
  || fail "the runtime role could not insert a row for tenant 2"
n=$(psql "$app_url" -X -q -At -v ON_ERROR_STOP=1 <<'SQL'
BEGIN;
SELECT set_config('app.municipality_id', '1', true) \g /dev/null
SELECT count(*) FROM payors;
COMMIT;
SQL
) || fail "the runtime role could not read its own tenant's rows"
[[ "$n" == "1" ]] || fail "with tenant 1 set, the runtime role saw $n rows (expected 1)"
n=$(q "$app_url" "SELECT count(*) FROM payors") || fail "the runtime role could not read the table"
[[ "$n" == "0" ]] || fail "with no tenant set, the runtime role saw $n rows (expected 0: fail closed)"
if q "$app_url" "BEGIN; SELECT set_config('app.municipality_id', '1', true);
                 INSERT INTO payors (municipality_id, name) VALUES (2, 'x'); COMMIT;" >/dev/null 2>&1; then
  fail "the runtime role wrote a row into another tenant"
fi

owned=$(q "$owner_url" "SELECT count(*) FROM pg_class WHERE relowner = (SELECT oid FROM pg_roles WHERE rolname = '$app')") \
  || fail "cannot query pg_class"
[[ "$owned" == "0" ]] || fail "the runtime role owns $owned relations"

expect_denied "$app_url" "TRUNCATE payors" "TRUNCATE by the runtime role"
expect_denied "$app_url" "CREATE TABLE sneaky (id int)" "CREATE TABLE by the runtime role"
expect_denied "$app_url" "ALTER TABLE payors NO FORCE ROW LEVEL SECURITY" "switching FORCE RLS off as the runtime role"
expect_denied "$app_url" "ALTER TABLE payors DISABLE ROW LEVEL SECURITY" "disabling RLS as the runtime role"
expect_denied "$app_url" "SET ROLE \"$owner\"" "SET ROLE to the owner from the runtime role"

echo "check-pg-roles: ok (runtime role is LOGIN NOSUPERUSER NOBYPASSRLS, owns nothing, gets DML by default privileges, and is confined by FORCE RLS)"
