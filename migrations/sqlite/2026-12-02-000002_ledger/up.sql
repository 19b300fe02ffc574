-- The ledger (issue 9, first slice): double-entry, append-only, integer cents.
-- Same tables as ../../postgres/2026-12-02-000002_ledger/up.sql, which adds
-- row-level security, a TRUNCATE trigger and the privileges.
--
-- A journal is one posting with its cause (a return version today; payments,
-- determinations, remittances later); its lines move amounts between named
-- accounts and sum to zero. Sign convention: a debit is positive, a credit
-- negative, so a payor's receivable accounts carry positive balances and the
-- municipality's revenue accounts negative ones. Account names are
-- structured text (src/domain/ledger/account.rs). A correction is a
-- reversing journal: the database refuses UPDATE and DELETE.
CREATE TABLE ledger_journals (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    posted_on DATE NOT NULL,
    -- kind and cause_type are parsed by the domain (JournalKind, Cause), not
    -- constrained here, so that later slices add kinds without rebuilding.
    kind TEXT NOT NULL,
    cause_type TEXT NOT NULL,
    cause_id TEXT NOT NULL,
    memo TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    -- A cause posts a journal of a kind once (a retried posting conflicts).
    UNIQUE (municipality_id, cause_type, cause_id, kind)
);
CREATE INDEX ledger_journals_by_date ON ledger_journals (municipality_id, posted_on);

CREATE TABLE ledger_lines (
    municipality_id BIGINT NOT NULL,
    journal_id TEXT NOT NULL,
    line_no INTEGER NOT NULL CHECK (line_no >= 1),
    account TEXT NOT NULL CHECK (account LIKE 'payor:%' OR account LIKE 'municipality:%'),
    amount_cents BIGINT NOT NULL,
    PRIMARY KEY (municipality_id, journal_id, line_no),
    FOREIGN KEY (municipality_id, journal_id) REFERENCES ledger_journals (municipality_id, id)
);
CREATE INDEX ledger_lines_by_account ON ledger_lines (municipality_id, account);

CREATE TRIGGER ledger_journals_no_update BEFORE UPDATE ON ledger_journals
BEGIN
    SELECT RAISE(ABORT, 'ledger_journals is append-only (post a reversing journal instead)');
END;
CREATE TRIGGER ledger_journals_no_delete BEFORE DELETE ON ledger_journals
BEGIN
    SELECT RAISE(ABORT, 'ledger_journals is append-only (post a reversing journal instead)');
END;
CREATE TRIGGER ledger_lines_no_update BEFORE UPDATE ON ledger_lines
BEGIN
    SELECT RAISE(ABORT, 'ledger_lines is append-only (post a reversing journal instead)');
END;
CREATE TRIGGER ledger_lines_no_delete BEFORE DELETE ON ledger_lines
BEGIN
    SELECT RAISE(ABORT, 'ledger_lines is append-only (post a reversing journal instead)');
END;
