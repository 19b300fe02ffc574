#!/usr/bin/env bash
# Creates roomtax's two PostgreSQL roles and its database.
#
# Run once by the postgres image's entrypoint on a fresh data volume (any file in
# /docker-entrypoint-initdb.d/), as the superuser, over the local socket. It is
# idempotent, so it can also be re-run by hand against an existing server:
#   POSTGRES_USER=postgres PGHOST=127.0.0.1 ROOMTAX_OWNER_DB_PASSWORD=... \
#   ROOMTAX_APP_DB_PASSWORD=... bash deploy/postgres-init/01-roles.sh
#
#   roomtax_owner  owns the database and its schema `public`; runs the migrations
#                  (ROOMTAX_MIGRATION_DATABASE_URL). NOSUPERUSER, NOBYPASSRLS.
#   roomtax_app    the runtime role (DATABASE_URL): LOGIN, NOSUPERUSER, NOBYPASSRLS,
#                  owns nothing, cannot create objects. It gets CONNECT, USAGE on the
#                  schema, and by default privileges SELECT/INSERT/UPDATE/DELETE on
#                  every table (no TRUNCATE: it ignores row-level security) and
#                  USAGE/SELECT on every sequence that roomtax_owner creates there.
#                  Row-level security therefore applies to it in full.
#
# The default passwords are for local use only: set ROOMTAX_OWNER_DB_PASSWORD and
# ROOMTAX_APP_DB_PASSWORD (e.g. in .env beside docker-compose.yml) for anything else.
# They end up inside connection URLs: use URL-safe characters.
set -eo pipefail

psql -v ON_ERROR_STOP=1 --no-psqlrc \
  --username "${POSTGRES_USER:-postgres}" --dbname "${POSTGRES_DB:-postgres}" \
  -v db="${ROOMTAX_DB_NAME:-roomtax}" \
  -v owner_role="${ROOMTAX_OWNER_ROLE:-roomtax_owner}" \
  -v owner_password="${ROOMTAX_OWNER_DB_PASSWORD:-change-me-owner}" \
  -v app_role="${ROOMTAX_APP_ROLE:-roomtax_app}" \
  -v app_password="${ROOMTAX_APP_DB_PASSWORD:-change-me-app}" <<'SQL'
-- Roles: create when missing, then (re)assert every attribute that matters.
SELECT format('CREATE ROLE %I', :'owner_role')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'owner_role') \gexec
SELECT format('CREATE ROLE %I', :'app_role')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'app_role') \gexec
ALTER ROLE :"owner_role" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION
  NOBYPASSRLS PASSWORD :'owner_password';
ALTER ROLE :"app_role" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION
  NOBYPASSRLS PASSWORD :'app_password';

-- The database, owned by the owner role.
SELECT format('CREATE DATABASE %I OWNER %I ENCODING %L TEMPLATE template0',
              :'db', :'owner_role', 'UTF8')
 WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'db') \gexec
ALTER DATABASE :"db" OWNER TO :"owner_role";
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
GRANT CONNECT ON DATABASE :"db" TO :"app_role";

\connect :"db"
-- Schema public: owned by the owner; the runtime role may use it, not create in it.
ALTER SCHEMA public OWNER TO :"owner_role";
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO :"app_role";

-- Tables and sequences the migrations (run as the owner) create later.
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner_role" IN SCHEMA public
  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app_role";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner_role" IN SCHEMA public
  GRANT USAGE, SELECT ON SEQUENCES TO :"app_role";
SQL
