-- Each return version's due dates as columns of their own, and one index that
-- answers what the ledger's terms read of every version (issue 12).
--
-- A statement of account, credit applied at a filing and a payment's
-- application need, of each version of a payor's returns: its number, tax,
-- when it was stored and its two due dates. The dates were only in the stored
-- assessment document (about 5.5 KB of JSON), so each version cost that
-- document's read and a JSON parse. Now the dates are columns, copied from
-- that same document here and written with it by every filing, and
-- `return_versions_terms` holds every column those reads need (an index-only
-- scan once the table is vacuumed). It also serves the first filing dates, so
-- the older `return_versions_first_filed` goes.
ALTER TABLE return_versions ADD COLUMN due_date DATE;
ALTER TABLE return_versions ADD COLUMN filing_due_date DATE;

-- The copy reads every tenant's rows (row-level security lifted for the owner
-- in this transaction only) and the append-only guard is lifted for it.
ALTER TABLE return_versions NO FORCE ROW LEVEL SECURITY;
ALTER TABLE return_versions DISABLE TRIGGER return_versions_append_only;
UPDATE return_versions SET
    due_date = (assessment::jsonb #>> '{assessment,due_date}')::date,
    filing_due_date = (assessment::jsonb #>> '{assessment,filing_due_date}')::date;
ALTER TABLE return_versions ENABLE TRIGGER return_versions_append_only;
ALTER TABLE return_versions FORCE ROW LEVEL SECURITY;

ALTER TABLE return_versions ALTER COLUMN due_date SET NOT NULL;
ALTER TABLE return_versions ALTER COLUMN filing_due_date SET NOT NULL;

DROP INDEX return_versions_first_filed;
CREATE INDEX return_versions_terms ON return_versions (
    municipality_id, return_id, version, tax_cents, created_at, filed_on, due_date, filing_due_date
);
