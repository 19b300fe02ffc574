-- Refunds of credit (issue 9, item 4). Same table as
-- ../../postgres/2026-12-04-000002_refunds/up.sql, which adds row-level
-- security, a TRUNCATE trigger and the privileges.
--
-- A refund is a fact as paid out: never changed. It names the return whose
-- overpayment it refunds (its due date starts Montello's refund interest),
-- the clerk-treasurer's finding on the overpayment and whether the return was
-- incomplete (the ordinance's exclusions), and the interest paid with it. What
-- it posted is its journal in the ledger (cause_type 'refund', cause_id the
-- refund's id, kind 'refund'): the payor's credit and the municipality's
-- refund interest expense debited, cash credited. The database refuses UPDATE
-- and DELETE.
CREATE TABLE refunds (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    payor_id TEXT NOT NULL,
    period TEXT NOT NULL,
    return_id TEXT NOT NULL,
    refunded_on DATE NOT NULL,
    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
    interest_cents BIGINT NOT NULL CHECK (interest_cents >= 0),
    method TEXT NOT NULL CHECK (method IN ('check', 'ach', 'card', 'cash')),
    reference TEXT NOT NULL,
    overpayment_intentional_or_careless BOOLEAN NOT NULL,
    return_incomplete BOOLEAN NOT NULL,
    recorded_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, payor_id) REFERENCES payors (municipality_id, id),
    FOREIGN KEY (municipality_id, return_id) REFERENCES tax_returns (municipality_id, id)
);
CREATE INDEX refunds_by_payor ON refunds (municipality_id, payor_id, refunded_on);

CREATE TRIGGER refunds_no_update BEFORE UPDATE ON refunds
BEGIN
    SELECT RAISE(ABORT, 'refunds is append-only');
END;
CREATE TRIGGER refunds_no_delete BEFORE DELETE ON refunds
BEGIN
    SELECT RAISE(ABORT, 'refunds is append-only');
END;
