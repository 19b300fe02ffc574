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

-- ledger_append_only() comes from the ledger's migration.
CREATE TRIGGER vehicle_fee_spending_reversals_append_only BEFORE UPDATE OR DELETE ON vehicle_fee_spending_reversals
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER vehicle_fee_spending_reversals_no_truncate BEFORE TRUNCATE ON vehicle_fee_spending_reversals
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

REVOKE UPDATE, DELETE, TRUNCATE ON vehicle_fee_spending_reversals FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid = 'vehicle_fee_spending_reversals'::regclass
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON vehicle_fee_spending_reversals FROM %I', r.grantee);
    END LOOP;
END
$$;

ALTER TABLE vehicle_fee_spending_reversals ENABLE ROW LEVEL SECURITY;
ALTER TABLE vehicle_fee_spending_reversals FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON vehicle_fee_spending_reversals
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);
