-- Each return version's due dates as columns of their own, and one index that
-- answers what the ledger's terms read of every version (issue 12).
--
-- A statement of account, credit applied at a filing and a payment's
-- application need, of each version of a payor's returns: its number, tax,
-- when it was stored and its two due dates. The dates were only in the stored
-- assessment document (about 5.5 KB of JSON, the row's overflow page), so each
-- version cost the row, its overflow page and a JSON parse. Now the dates are
-- columns, copied from that same document here and written with it by every
-- filing, and `return_versions_terms` holds every column those reads need, so
-- they read the index alone. It also serves the first filing dates, so the
-- older `return_versions_first_filed` goes.
ALTER TABLE return_versions ADD COLUMN due_date DATE;
ALTER TABLE return_versions ADD COLUMN filing_due_date DATE;

-- The versions are append-only: the guard is lifted for this one copy.
DROP TRIGGER return_versions_no_update;
UPDATE return_versions SET
    due_date = json_extract(assessment, '$.assessment.due_date'),
    filing_due_date = json_extract(assessment, '$.assessment.filing_due_date');
CREATE TRIGGER return_versions_no_update BEFORE UPDATE ON return_versions
BEGIN
    SELECT RAISE(ABORT, 'return_versions is append-only');
END;

-- SQLite cannot add NOT NULL to a column: a trigger refuses a new version
-- without its dates (PostgreSQL's columns are NOT NULL).
CREATE TRIGGER return_versions_due_dates_required BEFORE INSERT ON return_versions
WHEN NEW.due_date IS NULL OR NEW.filing_due_date IS NULL
BEGIN
    SELECT RAISE(ABORT, 'return_versions.due_date and filing_due_date are required');
END;

DROP INDEX return_versions_first_filed;
CREATE INDEX return_versions_terms ON return_versions (
    municipality_id, return_id, version, tax_cents, created_at, filed_on, due_date, filing_due_date
);
