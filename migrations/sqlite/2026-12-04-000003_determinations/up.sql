-- Determinations (issue 9, item 6): amounts the clerk-treasurer sets in
-- writing: office and field audits, non-filer estimates, fraud findings.
-- Same table as ../../postgres/2026-12-04-000003_determinations/up.sql,
-- which adds row-level security and the privileges.
--
-- A determination is a fact as made: never changed (a later audit is a new
-- determination; a return filed for an estimated period posts a journal of
-- kind 'estimate_replaced' caused by the estimate, never a change here).
-- `basis` is the clerk's written basis; the three amounts are the charges
-- its journal posted (kind 'determination', cause_type 'determination',
-- cause_id this row's id): the tax (an audit's difference from what was
-- assessed), the estimate penalty (Hayward's yearly cap sums these) and the
-- fraud penalty. `content` is JSON: the figures the clerk determined
-- (audited or estimated receipts, the tax found), the four-year limit's
-- date, the engine's explained lines and the provisions relied on.
-- `notice_id` is the written notice issued with it. Confidential like returns.
CREATE TABLE determinations (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    payor_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('office_audit', 'field_audit', 'non_filer_estimate', 'fraud')),
    period TEXT NOT NULL,
    determined_on DATE NOT NULL,
    basis TEXT NOT NULL,
    tax_charged_cents BIGINT NOT NULL,
    estimate_penalty_cents BIGINT NOT NULL,
    fraud_penalty_cents BIGINT NOT NULL,
    content TEXT NOT NULL,
    journal_id TEXT NOT NULL,
    notice_id TEXT NOT NULL,
    determined_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, payor_id) REFERENCES payors (municipality_id, id),
    FOREIGN KEY (municipality_id, journal_id) REFERENCES ledger_journals (municipality_id, id),
    FOREIGN KEY (municipality_id, notice_id) REFERENCES notices (municipality_id, id)
);
CREATE INDEX determinations_by_payor ON determinations (municipality_id, payor_id, period);

CREATE TRIGGER determinations_no_update BEFORE UPDATE ON determinations
BEGIN
    SELECT RAISE(ABORT, 'determinations is append-only (make a new determination instead)');
END;
CREATE TRIGGER determinations_no_delete BEFORE DELETE ON determinations
BEGIN
    SELECT RAISE(ABORT, 'determinations is append-only (make a new determination instead)');
END;
