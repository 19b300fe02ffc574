-- Payments received (issue 9, item 3). Same table as
-- ../../postgres/2026-12-03-000001_payments/up.sql, which adds row-level
-- security and the privileges.
--
-- A payment is a fact as received: never changed. What it settled is its
-- journal in the ledger (cause_type 'payment', cause_id the payment's id,
-- kind 'payment'); a bounced payment is reversed by a second journal of the
-- same cause (kind 'payment_reversed', at most one by the ledger's unique
-- key), never by changing this row: the database refuses UPDATE and DELETE.
CREATE TABLE payments (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    payor_id TEXT NOT NULL,
    received_on DATE NOT NULL,
    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
    method TEXT NOT NULL CHECK (method IN ('check', 'ach', 'card', 'cash')),
    reference TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, payor_id) REFERENCES payors (municipality_id, id)
);
CREATE INDEX payments_by_payor ON payments (municipality_id, payor_id, received_on);

CREATE TRIGGER payments_no_update BEFORE UPDATE ON payments
BEGIN
    SELECT RAISE(ABORT, 'payments is append-only (reverse a payment with a journal instead)');
END;
CREATE TRIGGER payments_no_delete BEFORE DELETE ON payments
BEGIN
    SELECT RAISE(ABORT, 'payments is append-only (reverse a payment with a journal instead)');
END;
