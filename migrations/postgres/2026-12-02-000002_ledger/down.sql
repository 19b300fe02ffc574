DROP TABLE ledger_lines;
DROP TABLE ledger_journals;
DROP FUNCTION ledger_append_only();
