-- No planner statistics on the tenant columns (`municipality_id`, `zone_id`)
-- of any table (issue 12).
--
-- Every tenant query filters on its tenant first, and a tenant column has few
-- values, so ANALYZE lists every one of them as a most common value. A tenant
-- that had no rows at the last ANALYZE (a municipality that just joined, or
-- the second one of an installation) is then estimated at one row in every
-- table, and autovacuum re-analyses a table only after a tenth of it changed:
-- months for a new municipality in a large installation. On that estimate
-- PostgreSQL picks whichever index starts with the tenant column, and a payor's
-- ledger read became a nested loop over all of the municipality's journals
-- times all of its lines (90-150 ms a call after a few hundred payors; the
-- benchmark's seed stalled on it in its second municipality).
--
-- Without statistics the planner takes any tenant to hold 1/200 of a table,
-- never none, and chooses between indexes by the conditions each one serves
-- (a key lookup by its key, a payor's lines by their account).
--
-- ANALYZE leaves alone what an earlier ANALYZE stored for a column it no longer
-- analyses: on a database that was analysed before this migration, a
-- superuser clears it once (README, "PostgreSQL and `docker compose`").
DO $$
DECLARE
    col record;
BEGIN
    FOR col IN
        SELECT c.relname, a.attname
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
          AND a.attname IN ('municipality_id', 'zone_id') AND NOT a.attisdropped
    LOOP
        EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET STATISTICS 0', col.relname, col.attname);
    END LOOP;
END
$$;
