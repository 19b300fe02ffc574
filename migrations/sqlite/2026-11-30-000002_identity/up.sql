-- Identity, roles, confidentiality: users and their grants, refresh tokens,
-- API clients, the payor registry (the first confidential resource),
-- disclosure grants and the append-only access log.
-- Same tables as ../../postgres/2026-11-30-000002_identity/up.sql, which adds
-- row-level security. Ids of new rows are UUID text (no guessable sequence);
-- tenant-owned tables lead their keys with municipality_id or zone_id.

CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
    display_name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    deleted_at TIMESTAMP
);

CREATE TABLE payors (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    legal_name TEXT NOT NULL,
    dba TEXT,
    contact_name TEXT,
    contact_email TEXT,
    contact_phone TEXT,
    mailing_address TEXT NOT NULL,
    seller_permit TEXT,
    annual_election TEXT NOT NULL CHECK (annual_election IN ('calendar', 'fiscal')),
    fiscal_year_end_month INTEGER CHECK (fiscal_year_end_month BETWEEN 1 AND 11),
    closed_on DATE,
    version BIGINT NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    CHECK ((annual_election = 'fiscal') = (fiscal_year_end_month IS NOT NULL))
);
CREATE INDEX payors_by_name ON payors (municipality_id, legal_name);

CREATE TABLE establishments (
    municipality_id BIGINT NOT NULL,
    id TEXT NOT NULL,
    payor_id TEXT NOT NULL,
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    kind TEXT NOT NULL,
    units INTEGER NOT NULL CHECK (units >= 0),
    opened_on DATE,
    closed_on DATE,
    version BIGINT NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, payor_id) REFERENCES payors (municipality_id, id),
    CHECK (closed_on IS NULL OR opened_on IS NULL OR closed_on >= opened_on)
);
CREATE INDEX establishments_by_payor ON establishments (municipality_id, payor_id);

CREATE TABLE municipality_grants (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id),
    role TEXT NOT NULL CHECK (role IN ('clerk_treasurer', 'municipal_staff', 'operator', 'marketplace_provider')),
    payor_id TEXT,
    created_at TIMESTAMP NOT NULL,
    created_by TEXT,
    revoked_at TIMESTAMP,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, payor_id) REFERENCES payors (municipality_id, id),
    CHECK ((role = 'operator') = (payor_id IS NOT NULL))
);
CREATE INDEX municipality_grants_by_user ON municipality_grants (user_id);

CREATE TABLE zone_grants (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id),
    role TEXT NOT NULL CHECK (role IN ('commission_member', 'tourism_entity', 'zone_admin')),
    created_at TIMESTAMP NOT NULL,
    created_by TEXT,
    revoked_at TIMESTAMP,
    PRIMARY KEY (zone_id, id)
);
CREATE INDEX zone_grants_by_user ON zone_grants (user_id);

-- Refresh tokens are stored as SHA-256 digests; `family_id` links a chain of
-- rotations so that reuse of a spent token revokes the whole family.
CREATE TABLE refresh_tokens (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    family_id TEXT NOT NULL,
    digest TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP,
    revoked_at TIMESTAMP
);
CREATE INDEX refresh_tokens_by_family ON refresh_tokens (family_id);

-- Third-party apps (OAuth2 client credentials), each bound to one municipality or zone.
CREATE TABLE api_clients (
    id TEXT PRIMARY KEY,
    municipality_id BIGINT REFERENCES municipalities (id),
    zone_id BIGINT REFERENCES zones (id),
    name TEXT NOT NULL,
    secret_digest TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    created_by TEXT NOT NULL,
    revoked_at TIMESTAMP,
    CHECK ((municipality_id IS NULL) <> (zone_id IS NULL))
);

-- A court order or legal duty: read-only access for one user to named payors until expiry.
CREATE TABLE disclosure_grants (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    reference TEXT NOT NULL,
    basis TEXT NOT NULL CHECK (basis IN ('court_order', 'legal_duty')),
    grantee_user_id TEXT NOT NULL REFERENCES users (id),
    expires_at TIMESTAMP NOT NULL,
    created_at TIMESTAMP NOT NULL,
    created_by TEXT NOT NULL,
    revoked_at TIMESTAMP,
    PRIMARY KEY (municipality_id, id)
);
CREATE INDEX disclosure_grants_by_grantee ON disclosure_grants (grantee_user_id);

CREATE TABLE disclosure_grant_payors (
    municipality_id BIGINT NOT NULL,
    grant_id TEXT NOT NULL,
    payor_id TEXT NOT NULL,
    PRIMARY KEY (municipality_id, grant_id, payor_id),
    FOREIGN KEY (municipality_id, grant_id) REFERENCES disclosure_grants (municipality_id, id),
    FOREIGN KEY (municipality_id, payor_id) REFERENCES payors (municipality_id, id)
);

-- Every read of a confidential record. Append-only: triggers refuse UPDATE and DELETE.
CREATE TABLE access_log (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    at TIMESTAMP NOT NULL,
    actor_kind TEXT NOT NULL CHECK (actor_kind IN ('user', 'client')),
    actor_id TEXT NOT NULL,
    basis TEXT NOT NULL,
    record_type TEXT NOT NULL,
    record_id TEXT NOT NULL,
    action TEXT NOT NULL,
    request_id TEXT NOT NULL,
    PRIMARY KEY (municipality_id, id)
);
CREATE INDEX access_log_by_time ON access_log (municipality_id, at);

CREATE TRIGGER access_log_no_update BEFORE UPDATE ON access_log
BEGIN
    SELECT RAISE(ABORT, 'access_log is append-only');
END;
CREATE TRIGGER access_log_no_delete BEFORE DELETE ON access_log
BEGIN
    SELECT RAISE(ABORT, 'access_log is append-only');
END;
