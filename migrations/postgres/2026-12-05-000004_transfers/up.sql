-- Transfers of a payor's establishments to another payor (issue 9 item 8:
-- the sale of the business). Same tables as
-- ../../sqlite/2026-12-05-000004_transfers/up.sql; this one adds row-level
-- security, TRUNCATE triggers and the privileges.

-- A transfer is a fact: the seller, the buyer, the date and who recorded it.
-- The registry keeps both sides: the seller's establishment is closed on
-- transfer_on (its row stays), the buyer's is a new row opened on it.
CREATE TABLE payor_transfers (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    seller_payor_id TEXT NOT NULL,
    buyer_payor_id TEXT NOT NULL,
    transfer_on DATE NOT NULL,
    recorded_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, seller_payor_id) REFERENCES payors (municipality_id, id),
    FOREIGN KEY (municipality_id, buyer_payor_id) REFERENCES payors (municipality_id, id),
    CHECK (seller_payor_id <> buyer_payor_id)
);
CREATE INDEX payor_transfers_by_seller ON payor_transfers (municipality_id, seller_payor_id, transfer_on);
CREATE INDEX payor_transfers_by_buyer ON payor_transfers (municipality_id, buyer_payor_id, transfer_on);

-- Each establishment a transfer moved: the seller's row (closed) and the
-- buyer's (opened).
CREATE TABLE payor_transfer_establishments (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    transfer_id TEXT NOT NULL,
    seller_establishment_id TEXT NOT NULL,
    buyer_establishment_id TEXT NOT NULL,
    PRIMARY KEY (municipality_id, transfer_id, seller_establishment_id),
    UNIQUE (municipality_id, seller_establishment_id),
    UNIQUE (municipality_id, buyer_establishment_id),
    FOREIGN KEY (municipality_id, transfer_id) REFERENCES payor_transfers (municipality_id, id),
    FOREIGN KEY (municipality_id, seller_establishment_id) REFERENCES establishments (municipality_id, id),
    FOREIGN KEY (municipality_id, buyer_establishment_id) REFERENCES establishments (municipality_id, id)
);

-- ledger_append_only() comes from the ledger's migration.
CREATE TRIGGER payor_transfers_append_only BEFORE UPDATE OR DELETE ON payor_transfers
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER payor_transfers_no_truncate BEFORE TRUNCATE ON payor_transfers
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON payor_transfers FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid = 'payor_transfers'::regclass
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON payor_transfers FROM %I', r.grantee);
    END LOOP;
END
$$;
ALTER TABLE payor_transfers ENABLE ROW LEVEL SECURITY;
ALTER TABLE payor_transfers FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON payor_transfers
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);

-- ledger_append_only() comes from the ledger's migration.
CREATE TRIGGER payor_transfer_establishments_append_only BEFORE UPDATE OR DELETE ON payor_transfer_establishments
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER payor_transfer_establishments_no_truncate BEFORE TRUNCATE ON payor_transfer_establishments
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON payor_transfer_establishments FROM PUBLIC;
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT DISTINCT pg_get_userbyid(a.grantee) AS grantee
        FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
        WHERE c.oid = 'payor_transfer_establishments'::regclass
          AND a.grantee <> 0 AND a.grantee <> c.relowner
          AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON payor_transfer_establishments FROM %I', r.grantee);
    END LOOP;
END
$$;
ALTER TABLE payor_transfer_establishments ENABLE ROW LEVEL SECURITY;
ALTER TABLE payor_transfer_establishments FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON payor_transfer_establishments
    USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)
    WITH CHECK (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint);
