-- Security deposits and clearance certificates (issue 9, items 7 and 8). Same
-- tables as ../../sqlite/2026-12-04-000004_security_clearance/up.sql; this one
-- adds row-level security, TRUNCATE triggers and the privileges.

-- A security deposit the clerk-treasurer requires of a payor (Montello room
-- tax, security ¶: "not in excess of $5,000"). The requirement is a fact:
-- never changed. What happens to it afterwards is a security_events row
-- (received, application notice, applied, returned); the money is in the
-- ledger (cause_type 'security_deposit', cause_id this id).
CREATE TABLE security_deposits (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    payor_id TEXT NOT NULL,
    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0 AND amount_cents <= 500000),
    reason TEXT NOT NULL,
    required_on DATE NOT NULL,
    notice_id TEXT NOT NULL,
    required_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, payor_id) REFERENCES payors (municipality_id, id),
    FOREIGN KEY (municipality_id, notice_id) REFERENCES notices (municipality_id, id)
);
CREATE INDEX security_deposits_by_payor ON security_deposits (municipality_id, payor_id, required_on);

-- What happened to a deposit, one row per event, oldest first by
-- (occurred_on, created_at): 'received' (money in, a journal),
-- 'application_notice' (the written notice; the 10 days run from
-- occurred_on), 'applied' (to unpaid tax, a journal), 'returned' (a journal).
CREATE TABLE security_events (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    deposit_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('received', 'application_notice', 'applied', 'returned')),
    occurred_on DATE NOT NULL,
    amount_cents BIGINT NOT NULL CHECK (amount_cents >= 0),
    reference TEXT NOT NULL,
    journal_id TEXT,
    notice_id TEXT,
    recorded_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, deposit_id) REFERENCES security_deposits (municipality_id, id),
    FOREIGN KEY (municipality_id, journal_id) REFERENCES ledger_journals (municipality_id, id),
    FOREIGN KEY (municipality_id, notice_id) REFERENCES notices (municipality_id, id)
);
CREATE INDEX security_events_by_deposit ON security_events (municipality_id, deposit_id, occurred_on);
-- At most one return per deposit.
CREATE UNIQUE INDEX security_events_one_return ON security_events (municipality_id, deposit_id, kind)
    WHERE kind = 'returned';

-- A clearance certificate on the sale of a business (Montello room tax,
-- sale of business ¶): a receipt that the tax is paid or a certificate that
-- nothing is due. The verification code itself is never stored: code_hash
-- is the lowercase hex SHA-256 of it (128 random bits, so a fast hash
-- suffices). public_name is the payor's public (trade) name as shown to
-- anyone holding the code; nothing confidential is read by the public
-- lookup beyond this row.
CREATE TABLE clearance_certificates (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    payor_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('tax_paid_receipt', 'nothing_due')),
    code_hash TEXT NOT NULL UNIQUE,
    public_name TEXT NOT NULL,
    issued_on DATE NOT NULL,
    notice_id TEXT NOT NULL,
    issued_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, payor_id) REFERENCES payors (municipality_id, id),
    FOREIGN KEY (municipality_id, notice_id) REFERENCES notices (municipality_id, id)
);

-- ledger_append_only() comes from the ledger's migration.
CREATE TRIGGER security_deposits_append_only BEFORE UPDATE OR DELETE ON security_deposits
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER security_deposits_no_truncate BEFORE TRUNCATE ON security_deposits
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON security_deposits FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid = 'security_deposits'::regclass
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON security_deposits FROM %I', r.grantee);
    END LOOP;
END
$$;
ALTER TABLE security_deposits ENABLE ROW LEVEL SECURITY;
ALTER TABLE security_deposits FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON security_deposits
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);

-- ledger_append_only() comes from the ledger's migration.
CREATE TRIGGER security_events_append_only BEFORE UPDATE OR DELETE ON security_events
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER security_events_no_truncate BEFORE TRUNCATE ON security_events
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON security_events FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid = 'security_events'::regclass
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON security_events FROM %I', r.grantee);
    END LOOP;
END
$$;
ALTER TABLE security_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE security_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON security_events
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);

-- ledger_append_only() comes from the ledger's migration.
CREATE TRIGGER clearance_certificates_append_only BEFORE UPDATE OR DELETE ON clearance_certificates
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER clearance_certificates_no_truncate BEFORE TRUNCATE ON clearance_certificates
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON clearance_certificates FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid = 'clearance_certificates'::regclass
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON clearance_certificates FROM %I', r.grantee);
    END LOOP;
END
$$;
ALTER TABLE clearance_certificates ENABLE ROW LEVEL SECURITY;
ALTER TABLE clearance_certificates FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON clearance_certificates
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);

-- The public verification (GET /v1/clearance-certificates/{code}) runs with
-- no tenant set: it sets app.clearance_code_hash to the digest of the code it
-- was given, and sees the one certificate with that digest, no other row.
CREATE POLICY by_code ON clearance_certificates FOR SELECT
    USING (code_hash = NULLIF(current_setting('app.clearance_code_hash', true), ''));
