-- Remittances of collected room tax to the zone's commission (issue 10,
-- items 1, 2 and 7). Same tables as
-- ../../postgres/2026-12-05-000001_remittances/up.sql, which adds row-level
-- security, TRUNCATE triggers and the privileges.
--
-- One row per version of a municipality's submission for a quarter: the
-- figures (from the ledger, `source` 'ledger', or entered by the clerk,
-- 'entered'), the commission share of the policy governing the quarter, the
-- split (commission + retained = tax_collected, to the cent) and the
-- difference from the previous version (what this version's journal posts:
-- cause_type 'remittance', cause_id the row's id, kind 'remittance'). A
-- correction is a new version, never a change. zone_id is the zone whose
-- membership covers the quarter's last day: the zone reads its members' rows
-- by it. The database refuses UPDATE and DELETE.
CREATE TABLE remittances (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    period TEXT NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 1),
    source TEXT NOT NULL CHECK (source IN ('ledger', 'entered')),
    gross_receipts_cents BIGINT NOT NULL CHECK (gross_receipts_cents >= 0),
    tax_collected_cents BIGINT NOT NULL,
    payor_count INTEGER NOT NULL CHECK (payor_count >= 0),
    commission_share TEXT NOT NULL,
    commission_cents BIGINT NOT NULL,
    retained_cents BIGINT NOT NULL,
    commission_difference_cents BIGINT NOT NULL,
    submitted_on DATE NOT NULL,
    submitted_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    UNIQUE (municipality_id, period, version),
    CHECK (commission_cents + retained_cents = tax_collected_cents)
);
CREATE INDEX remittances_by_zone ON remittances (zone_id, period);

-- The commission's share of a version marked paid (transferred to the
-- commission): at most one per version (and its journal, kind
-- 'remittance_transfer', cause the version, is unique too).
CREATE TABLE remittance_transfers (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    remittance_id TEXT NOT NULL,
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    period TEXT NOT NULL,
    paid_on DATE NOT NULL,
    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
    method TEXT NOT NULL CHECK (method IN ('check', 'ach', 'card', 'cash', 'wire')),
    reference TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    UNIQUE (municipality_id, remittance_id),
    FOREIGN KEY (municipality_id, remittance_id) REFERENCES remittances (municipality_id, id)
);
CREATE INDEX remittance_transfers_by_zone ON remittance_transfers (zone_id, period);

CREATE TRIGGER remittances_no_update BEFORE UPDATE ON remittances
BEGIN
    SELECT RAISE(ABORT, 'remittances is append-only');
END;
CREATE TRIGGER remittances_no_delete BEFORE DELETE ON remittances
BEGIN
    SELECT RAISE(ABORT, 'remittances is append-only');
END;
CREATE TRIGGER remittance_transfers_no_update BEFORE UPDATE ON remittance_transfers
BEGIN
    SELECT RAISE(ABORT, 'remittance_transfers is append-only');
END;
CREATE TRIGGER remittance_transfers_no_delete BEFORE DELETE ON remittance_transfers
BEGIN
    SELECT RAISE(ABORT, 'remittance_transfers is append-only');
END;
