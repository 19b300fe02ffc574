-- Determinations (issue 9, item 6). Same table as
-- ../../sqlite/2026-12-04-000003_determinations/up.sql (which explains the
-- columns); this one adds row-level security, a TRUNCATE trigger and the
-- privileges.

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

-- ledger_append_only() comes from the ledger's migration.
CREATE TRIGGER determinations_append_only BEFORE UPDATE OR DELETE ON determinations
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER determinations_no_truncate BEFORE TRUNCATE ON determinations
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

REVOKE UPDATE, DELETE, TRUNCATE ON determinations FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid = 'determinations'::regclass
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON determinations FROM %I', r.grantee);
    END LOOP;
END
$$;

ALTER TABLE determinations ENABLE ROW LEVEL SECURITY;
ALTER TABLE determinations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON determinations
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);
