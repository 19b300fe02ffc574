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
        EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET STATISTICS -1', col.relname, col.attname);
    END LOOP;
END
$$;
