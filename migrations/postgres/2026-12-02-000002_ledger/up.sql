-- The ledger (issue 9, first slice): double-entry, append-only, integer cents.
-- Same tables as ../../sqlite/2026-12-02-000002_ledger/up.sql; this one adds
-- row-level security, a TRUNCATE trigger and the privileges.
--
-- A journal is one posting with its cause (a return version today; payments,
-- determinations, remittances later); its lines move amounts between named
-- accounts and sum to zero. Sign convention: a debit is positive, a credit
-- negative, so a payor's receivable accounts carry positive balances and the
-- municipality's revenue accounts negative ones. Account names are
-- structured text (src/domain/ledger/account.rs): `payor:<payor>:<period>:<component>`,
-- `payor:<payor>:credit`, `payor:<payor>:security_deposit`, `municipality:cash`,
-- `municipality:revenue:<component>`, `municipality:commission_payable`,
-- `municipality:vehicle_fee_fund`. A correction is a reversing journal: the
-- database refuses UPDATE, DELETE and TRUNCATE.
CREATE TABLE ledger_journals (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    posted_on DATE NOT NULL,
    -- kind and cause_type are parsed by the domain (JournalKind, Cause), not
    -- constrained here, so that later slices add kinds without rebuilding.
    kind TEXT NOT NULL,
    cause_type TEXT NOT NULL,
    cause_id TEXT NOT NULL,
    memo TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    -- A cause posts a journal of a kind once (a retried posting conflicts).
    UNIQUE (municipality_id, cause_type, cause_id, kind)
);
CREATE INDEX ledger_journals_by_date ON ledger_journals (municipality_id, posted_on);

CREATE TABLE ledger_lines (
    municipality_id BIGINT NOT NULL,
    journal_id TEXT NOT NULL,
    line_no INTEGER NOT NULL CHECK (line_no >= 1),
    account TEXT NOT NULL CHECK (account LIKE 'payor:%' OR account LIKE 'municipality:%'),
    amount_cents BIGINT NOT NULL,
    PRIMARY KEY (municipality_id, journal_id, line_no),
    FOREIGN KEY (municipality_id, journal_id) REFERENCES ledger_journals (municipality_id, id)
);
CREATE INDEX ledger_lines_by_account ON ledger_lines (municipality_id, account);

CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only (post a reversing journal instead)', TG_TABLE_NAME;
END
$$;
CREATE TRIGGER ledger_journals_append_only BEFORE UPDATE OR DELETE ON ledger_journals
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_journals_no_truncate BEFORE TRUNCATE ON ledger_journals
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_lines_append_only BEFORE UPDATE OR DELETE ON ledger_lines
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_lines_no_truncate BEFORE TRUNCATE ON ledger_lines
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

-- Nobody but the owner may change or remove rows, whatever the default
-- privileges gave (deploy/postgres-init/01-roles.sh grants the runtime role
-- SELECT, INSERT, UPDATE, DELETE on every new table): revoke from PUBLIC and
-- from every role holding such a privilege now, whatever its name.
REVOKE UPDATE, DELETE, TRUNCATE ON ledger_journals, ledger_lines FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT c.relname, pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid IN ('ledger_journals'::regclass, 'ledger_lines'::regclass)
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %I FROM %I', r.relname, r.grantee);
    END LOOP;
END
$$;

ALTER TABLE ledger_journals ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_journals FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON ledger_journals
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);

ALTER TABLE ledger_lines ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_lines FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON ledger_lines
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);
