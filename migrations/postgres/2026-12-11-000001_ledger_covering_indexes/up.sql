-- A payor's ledger read (`db::ledger::payor_lines_as_of` and the other reads by
-- account) from indexes alone (issue 12): the SQLite migration of this name says
-- why. Here the extra columns ride in INCLUDE (kept in the leaf, not in the key),
-- and the reads are index-only once VACUUM (autovacuum) has set the visibility map.
DROP INDEX ledger_lines_by_account;
CREATE INDEX ledger_lines_by_account
    ON ledger_lines (municipality_id, account) INCLUDE (journal_id, line_no, amount_cents);
CREATE UNIQUE INDEX ledger_journals_entry
    ON ledger_journals (municipality_id, id) INCLUDE (posted_on, created_at, kind);
