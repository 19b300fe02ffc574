-- A payor's ledger read (`db::ledger::payor_lines_as_of` and the other reads by
-- account) from indexes alone (issue 12).
--
-- Every statement, filing, payment and refund reads the payor's lines by account
-- and joins each to its journal for the date, the kind and the posting order.
-- With the (municipality_id, account) index and the journals' key, each line cost
-- three B-tree searches after the index's own: the line's row, its journal's key
-- and its journal's row (under callgrind: 318,000 instructions of a 1,178,800
-- statement, bench/results/README.md). Both indexes now carry what those reads
-- select, so a line is one index entry and its journal one more.
DROP INDEX ledger_lines_by_account;
CREATE INDEX ledger_lines_by_account
    ON ledger_lines (municipality_id, account, journal_id, line_no, amount_cents);
CREATE INDEX ledger_journals_entry
    ON ledger_journals (municipality_id, id, posted_on, created_at, kind);
