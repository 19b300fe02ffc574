-- A spending recorded in error is reversed by a new row, never edited
-- (issue 10 item 9: the fund's ledger is append-only). Its journal (kind
-- 'vehicle_fee_spending_reversed', cause_type 'vehicle_fee_spending', cause_id
-- the spending's id) debits municipality:cash and credits
-- municipality:vehicle_fee_fund with the spending's amount. A spending is
-- reversed at most once: the UNIQUE holds it under concurrency too.
CREATE TABLE vehicle_fee_spending_reversals (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    spending_id TEXT NOT NULL,
    reversed_on DATE NOT NULL,
    reason TEXT NOT NULL,
    journal_id TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    UNIQUE (municipality_id, spending_id),
    FOREIGN KEY (municipality_id, spending_id) REFERENCES vehicle_fee_spending (municipality_id, id),
    FOREIGN KEY (municipality_id, journal_id) REFERENCES ledger_journals (municipality_id, id)
);

CREATE TRIGGER vehicle_fee_spending_reversals_no_update BEFORE UPDATE ON vehicle_fee_spending_reversals
BEGIN
    SELECT RAISE(ABORT, 'vehicle_fee_spending_reversals is append-only');
END;
CREATE TRIGGER vehicle_fee_spending_reversals_no_delete BEFORE DELETE ON vehicle_fee_spending_reversals
BEGIN
    SELECT RAISE(ABORT, 'vehicle_fee_spending_reversals is append-only');
END;
