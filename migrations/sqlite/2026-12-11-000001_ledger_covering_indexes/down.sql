DROP INDEX ledger_journals_entry;
DROP INDEX ledger_lines_by_account;
CREATE INDEX ledger_lines_by_account ON ledger_lines (municipality_id, account);
