-- Remittances of collected room tax to the zone's commission (issue 10,
-- items 1, 2 and 7). Same tables as
-- ../../sqlite/2026-12-05-000001_remittances/up.sql; this one adds row-level
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

-- ledger_append_only() comes from the ledger's migration.
CREATE TRIGGER remittances_append_only BEFORE UPDATE OR DELETE ON remittances
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER remittances_no_truncate BEFORE TRUNCATE ON remittances
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON remittances FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid = 'remittances'::regclass
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON remittances FROM %I', r.grantee);
    END LOOP;
END
$$;
-- Row-level security: the municipality reads and inserts its own rows; the
-- zone reads the rows whose zone_id is its own (both sides consented through
-- membership). No policy allows UPDATE or DELETE; fail closed when unset.
ALTER TABLE remittances ENABLE ROW LEVEL SECURITY;
ALTER TABLE remittances FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_reads ON remittances FOR SELECT
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);
CREATE POLICY tenant_inserts ON remittances FOR INSERT
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);
CREATE POLICY zone_reads ON remittances FOR SELECT
    USING (zone_id = NULLIF(current_setting('app.zone_id', true), '')::bigint);

-- ledger_append_only() comes from the ledger's migration.
CREATE TRIGGER remittance_transfers_append_only BEFORE UPDATE OR DELETE ON remittance_transfers
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER remittance_transfers_no_truncate BEFORE TRUNCATE ON remittance_transfers
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON remittance_transfers FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid = 'remittance_transfers'::regclass
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON remittance_transfers FROM %I', r.grantee);
    END LOOP;
END
$$;
-- Row-level security: the municipality reads and inserts its own rows; the
-- zone reads the rows whose zone_id is its own (both sides consented through
-- membership). No policy allows UPDATE or DELETE; fail closed when unset.
ALTER TABLE remittance_transfers ENABLE ROW LEVEL SECURITY;
ALTER TABLE remittance_transfers FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_reads ON remittance_transfers FOR SELECT
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);
CREATE POLICY tenant_inserts ON remittance_transfers FOR INSERT
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);
CREATE POLICY zone_reads ON remittance_transfers FOR SELECT
    USING (zone_id = NULLIF(current_setting('app.zone_id', true), '')::bigint);
