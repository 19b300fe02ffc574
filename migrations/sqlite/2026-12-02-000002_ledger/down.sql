DROP TABLE ledger_lines;
DROP TABLE ledger_journals;
