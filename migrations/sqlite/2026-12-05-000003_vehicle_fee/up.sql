-- Montello's city vehicle registration fee (issue 10, item 9). Same tables as
-- ../../postgres/2026-12-05-000003_vehicle_fee/up.sql, which adds row-level
-- security, TRUNCATE triggers and the privileges.
--
-- The DOT collects the $20 fee at registration and renewal, keeps its
-- administrative cost per vehicle and remits the rest; the fees received "shall
-- be deposited into a segregated fund" whose use "shall be restricted to local
-- street and road improvements, maintenance and operation expenses of said road
-- or streets and transportation-related expenses" (Montello vehicle
-- registration fee, fee ¶; DOT retention ¶).
--
-- A remittance is one version of what the DOT remitted for one calendar
-- quarter: version 1 as first recorded, each correction a new version with the
-- quarter's figures as corrected (never an UPDATE). Each version keeps the
-- policy values it was computed with (fee and retention per vehicle, the
-- policy version's effective date; its gross, retention and expected net are
-- the count times them, to the cent), the amount received, and what it posted
-- into the fund (posted_cents: version 1 the amount received, a correction the
-- difference from the previous version). Its journal (kind and cause_type
-- 'vehicle_fee_remittance', cause_id this id) debits municipality:cash and
-- credits municipality:vehicle_fee_fund with posted_cents.
CREATE TABLE vehicle_fee_remittances (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    period TEXT NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 1),
    vehicle_count BIGINT NOT NULL CHECK (vehicle_count >= 0),
    fee_per_vehicle_cents BIGINT NOT NULL CHECK (fee_per_vehicle_cents > 0),
    retention_per_vehicle_cents BIGINT NOT NULL CHECK (retention_per_vehicle_cents >= 0),
    policy_effective_from DATE NOT NULL,
    received_cents BIGINT NOT NULL CHECK (received_cents >= 0),
    posted_cents BIGINT NOT NULL,
    received_on DATE NOT NULL,
    reference TEXT NOT NULL,
    reason TEXT,
    journal_id TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    -- One version 1 per quarter (a second recording conflicts), one row per version.
    UNIQUE (municipality_id, period, version),
    CHECK (retention_per_vehicle_cents < fee_per_vehicle_cents),
    -- A correction says why; the first recording has nothing to correct.
    CHECK ((version = 1 AND reason IS NULL) OR (version > 1 AND reason IS NOT NULL)),
    FOREIGN KEY (municipality_id, journal_id) REFERENCES ledger_journals (municipality_id, id)
);

-- Spending from the fund, one row per payment made, for one of the purposes the
-- ordinance allows (the CHECK lists them, in the ordinance's words). Its journal
-- (kind and cause_type 'vehicle_fee_spending', cause_id this id) debits
-- municipality:vehicle_fee_fund and credits municipality:cash with the amount.
CREATE TABLE vehicle_fee_spending (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    spent_on DATE NOT NULL,
    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
    payee TEXT NOT NULL,
    purpose TEXT NOT NULL CHECK (purpose IN (
        'local_street_and_road_improvements',
        'road_and_street_maintenance_and_operation',
        'transportation_related_expenses'
    )),
    description TEXT NOT NULL,
    journal_id TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, journal_id) REFERENCES ledger_journals (municipality_id, id)
);
CREATE INDEX vehicle_fee_spending_by_date ON vehicle_fee_spending (municipality_id, spent_on);

CREATE TRIGGER vehicle_fee_remittances_no_update BEFORE UPDATE ON vehicle_fee_remittances
BEGIN
    SELECT RAISE(ABORT, 'vehicle_fee_remittances is append-only (record a correction instead)');
END;
CREATE TRIGGER vehicle_fee_remittances_no_delete BEFORE DELETE ON vehicle_fee_remittances
BEGIN
    SELECT RAISE(ABORT, 'vehicle_fee_remittances is append-only (record a correction instead)');
END;
CREATE TRIGGER vehicle_fee_spending_no_update BEFORE UPDATE ON vehicle_fee_spending
BEGIN
    SELECT RAISE(ABORT, 'vehicle_fee_spending is append-only');
END;
CREATE TRIGGER vehicle_fee_spending_no_delete BEFORE DELETE ON vehicle_fee_spending
BEGIN
    SELECT RAISE(ABORT, 'vehicle_fee_spending is append-only');
END;
