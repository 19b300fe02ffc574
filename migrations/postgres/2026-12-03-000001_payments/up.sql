-- Payments received (issue 9, item 3). Same table as
-- ../../sqlite/2026-12-03-000001_payments/up.sql; this one adds row-level
-- security, a TRUNCATE trigger and the privileges.
--
-- A payment is a fact as received: never changed. What it settled is its
-- journal in the ledger (cause_type 'payment', cause_id the payment's id,
-- kind 'payment'); a bounced payment is reversed by a second journal of the
-- same cause (kind 'payment_reversed', at most one by the ledger's unique
-- key), never by changing this row: the database refuses UPDATE, DELETE
-- and TRUNCATE.
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

-- ledger_append_only() comes from the ledger's migration.
CREATE TRIGGER payments_append_only BEFORE UPDATE OR DELETE ON payments
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER payments_no_truncate BEFORE TRUNCATE ON payments
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

REVOKE UPDATE, DELETE, TRUNCATE ON payments FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid = 'payments'::regclass
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON payments FROM %I', r.grantee);
    END LOOP;
END
$$;

ALTER TABLE payments ENABLE ROW LEVEL SECURITY;
ALTER TABLE payments FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON payments
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);
