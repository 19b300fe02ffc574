DROP INDEX return_versions_terms;
CREATE INDEX return_versions_first_filed ON return_versions (municipality_id, return_id, filed_on);
DROP TRIGGER return_versions_due_dates_required;
ALTER TABLE return_versions DROP COLUMN filing_due_date;
ALTER TABLE return_versions DROP COLUMN due_date;
