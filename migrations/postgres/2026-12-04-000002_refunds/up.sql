-- Refunds of credit (issue 9, item 4). Same table as
-- ../../sqlite/2026-12-04-000002_refunds/up.sql; this one adds row-level
-- security, a TRUNCATE trigger and the privileges.
--
-- A refund is a fact as paid out: never changed. It names the return whose
-- overpayment it refunds (its due date starts Montello's refund interest),
-- the clerk-treasurer's finding on the overpayment and whether the return was
-- incomplete (the ordinance's exclusions), and the interest paid with it. What
-- it posted is its journal in the ledger (cause_type 'refund', cause_id the
-- refund's id, kind 'refund'). The database refuses UPDATE, DELETE and
-- TRUNCATE.
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

-- ledger_append_only() comes from the ledger's migration.
CREATE TRIGGER refunds_append_only BEFORE UPDATE OR DELETE ON refunds
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER refunds_no_truncate BEFORE TRUNCATE ON refunds
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

REVOKE UPDATE, DELETE, TRUNCATE ON refunds FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid = 'refunds'::regclass
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON refunds FROM %I', r.grantee);
    END LOOP;
END
$$;

ALTER TABLE refunds ENABLE ROW LEVEL SECURITY;
ALTER TABLE refunds FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON refunds
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);
