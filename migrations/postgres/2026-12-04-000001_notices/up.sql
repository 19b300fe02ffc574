-- Written notices (issue 9, item 10). Same table as
-- ../../sqlite/2026-12-04-000001_notices/up.sql (which explains the columns);
-- this one adds row-level security, a TRUNCATE trigger and the privileges.

CREATE TABLE notices (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    payor_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    issued_on DATE NOT NULL,
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    journal_id TEXT,
    cause_type TEXT NOT NULL,
    cause_id TEXT NOT NULL,
    issued_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, payor_id) REFERENCES payors (municipality_id, id),
    FOREIGN KEY (municipality_id, journal_id) REFERENCES ledger_journals (municipality_id, id)
);
CREATE INDEX notices_by_payor ON notices (municipality_id, payor_id, issued_on);

-- ledger_append_only() comes from the ledger's migration.
CREATE TRIGGER notices_append_only BEFORE UPDATE OR DELETE ON notices
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER notices_no_truncate BEFORE TRUNCATE ON notices
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

REVOKE UPDATE, DELETE, TRUNCATE ON notices FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid = 'notices'::regclass
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON notices FROM %I', r.grantee);
    END LOOP;
END
$$;

ALTER TABLE notices ENABLE ROW LEVEL SECURITY;
ALTER TABLE notices FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON notices
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);

-- The document as sent (see the SQLite migration).
CREATE TABLE notice_documents (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    notice_id TEXT NOT NULL,
    media_type TEXT NOT NULL,
    bytes BYTEA NOT NULL,
    sha256 TEXT NOT NULL,
    PRIMARY KEY (municipality_id, notice_id),
    FOREIGN KEY (municipality_id, notice_id) REFERENCES notices (municipality_id, id)
);
CREATE TRIGGER notice_documents_append_only BEFORE UPDATE OR DELETE ON notice_documents
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER notice_documents_no_truncate BEFORE TRUNCATE ON notice_documents
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

REVOKE UPDATE, DELETE, TRUNCATE ON notice_documents FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid = 'notice_documents'::regclass
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON notice_documents FROM %I', r.grantee);
    END LOOP;
END
$$;

ALTER TABLE notice_documents ENABLE ROW LEVEL SECURITY;
ALTER TABLE notice_documents FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON notice_documents
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);
