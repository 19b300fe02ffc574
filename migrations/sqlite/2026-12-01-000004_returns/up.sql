-- Returns (issue 8): operators file quarterly and annual returns, amend them,
-- attach documents and ask for extensions; marketplace providers report;
-- creating requests are idempotent. Everything here is confidential.
-- Same tables as ../../postgres/2026-12-01-000004_returns/up.sql, which adds
-- row-level security.

-- A return: one per payor and period (quarterly "2026-Q1" or annual "2026" /
-- "FY2026-06"). The header never changes; what was filed lives in its
-- versions, and its status is derived from them, its extensions and its
-- attachments.
CREATE TABLE tax_returns (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    payor_id TEXT NOT NULL,
    period TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('quarterly', 'annual')),
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, payor_id) REFERENCES payors (municipality_id, id),
    UNIQUE (municipality_id, payor_id, period)
);
CREATE INDEX tax_returns_by_period ON tax_returns (municipality_id, period);

-- Every version of a return, as filed: version 1 is the original, each
-- amendment (or adjustment from the annual return) adds the next. Nothing is
-- overwritten. Money in integer cents; the filing's details (exemptions,
-- establishments, nights, signer, the annual return an adjustment comes from)
-- and the engine's assessment (due dates, fees, difference from the previous
-- version, explained lines) as JSON text, with the policy version used.
-- entered_by is the actor ("user:ID" or "client:ID"); entered_as says whether
-- the operator filed it or staff entered a paper return for it.
CREATE TABLE return_versions (
    municipality_id BIGINT NOT NULL,
    return_id TEXT NOT NULL,
    version BIGINT NOT NULL CHECK (version >= 1),
    source TEXT NOT NULL CHECK (source IN ('filed', 'amended', 'annual_adjustment')),
    filed_on DATE NOT NULL,
    received_on DATE,
    entered_by TEXT NOT NULL CHECK (entered_by LIKE 'user:%' OR entered_by LIKE 'client:%'),
    entered_as TEXT NOT NULL CHECK (entered_as IN ('operator', 'staff', 'client')),
    gross_receipts_cents BIGINT NOT NULL CHECK (gross_receipts_cents >= 0),
    exempt_receipts_cents BIGINT NOT NULL CHECK (exempt_receipts_cents >= 0),
    tax_cents BIGINT NOT NULL,
    amount_due_cents BIGINT NOT NULL,
    policy_version DATE NOT NULL,
    filing TEXT NOT NULL,
    assessment TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, return_id, version),
    FOREIGN KEY (municipality_id, return_id) REFERENCES tax_returns (municipality_id, id),
    CHECK ((version = 1) = (source = 'filed'))
);

-- Documents attached to a return (Hayward: the state sales-tax return), kept
-- in the database in the same transaction as their record, with their
-- SHA-256. At most 10 MiB each (checked by the service and here).
CREATE TABLE return_attachments (
    municipality_id BIGINT NOT NULL,
    id TEXT NOT NULL,
    return_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    content_type TEXT NOT NULL CHECK (content_type IN ('application/pdf', 'image/png', 'image/jpeg')),
    size_bytes BIGINT NOT NULL CHECK (size_bytes BETWEEN 1 AND 10485760),
    sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
    content BLOB NOT NULL,
    uploaded_by TEXT NOT NULL CHECK (uploaded_by LIKE 'user:%' OR uploaded_by LIKE 'client:%'),
    uploaded_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, return_id) REFERENCES tax_returns (municipality_id, id)
);
CREATE INDEX return_attachments_by_return ON return_attachments (municipality_id, return_id);

-- Extensions of the time to file (Montello: up to one month, for good cause).
-- Requested by the operator or by the clerk for it, for a payor's period
-- (the return may not be filed yet); granted with the new date or refused,
-- with a reason. At most one open (requested or granted) per payor and period.
CREATE TABLE return_extensions (
    municipality_id BIGINT NOT NULL,
    id TEXT NOT NULL,
    payor_id TEXT NOT NULL,
    period TEXT NOT NULL,
    reason TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('requested', 'granted', 'refused')),
    requested_by TEXT NOT NULL CHECK (requested_by LIKE 'user:%' OR requested_by LIKE 'client:%'),
    requested_at TIMESTAMP NOT NULL,
    extended_to DATE,
    decision_reason TEXT,
    decided_by TEXT CHECK (decided_by LIKE 'user:%'),
    decided_at TIMESTAMP,
    PRIMARY KEY (municipality_id, id),
    FOREIGN KEY (municipality_id, payor_id) REFERENCES payors (municipality_id, id),
    CHECK ((status = 'requested') = (decided_at IS NULL)),
    CHECK ((status = 'granted') = (extended_to IS NOT NULL))
);
CREATE UNIQUE INDEX return_extensions_one_open ON return_extensions (municipality_id, payor_id, period)
    WHERE status IN ('requested', 'granted');

-- A marketplace provider's report for one municipality and period: totals
-- only, no property addresses (by statute), and what the engine says it owes.
CREATE TABLE marketplace_reports (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    id TEXT NOT NULL,
    provider_user_id TEXT NOT NULL REFERENCES users (id),
    period TEXT NOT NULL,
    gross_receipts_cents BIGINT NOT NULL CHECK (gross_receipts_cents >= 0),
    exempt_receipts_cents BIGINT NOT NULL CHECK (exempt_receipts_cents >= 0),
    nights BIGINT NOT NULL CHECK (nights >= 0),
    tax_collected_cents BIGINT NOT NULL CHECK (tax_collected_cents >= 0),
    tax_owed_cents BIGINT NOT NULL,
    difference_cents BIGINT NOT NULL,
    policy_version DATE NOT NULL,
    assessment TEXT NOT NULL,
    filed_on DATE NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, id),
    UNIQUE (municipality_id, provider_user_id, period)
);

-- Idempotency-Key records (IETF draft-ietf-httpapi-idempotency-key-header):
-- a key is scoped to the caller (actor) and the municipality; the first
-- request claims it (in_progress, committed before the work so that a
-- concurrent retry sees it), the work's own transaction stores the response
-- (done). Kept at least 24 hours.
CREATE TABLE idempotency_keys (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    actor TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('in_progress', 'done')),
    response_status INTEGER,
    response_location TEXT,
    response_body TEXT,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (municipality_id, actor, idem_key),
    CHECK ((state = 'done') = (response_status IS NOT NULL))
);

-- A filed return, its versions and its attachments are never changed or
-- removed (an amendment is a new version): enforced by the database.
CREATE TRIGGER tax_returns_no_update BEFORE UPDATE ON tax_returns
BEGIN
    SELECT RAISE(ABORT, 'tax_returns is append-only');
END;
CREATE TRIGGER tax_returns_no_delete BEFORE DELETE ON tax_returns
BEGIN
    SELECT RAISE(ABORT, 'tax_returns is append-only');
END;
CREATE TRIGGER return_versions_no_update BEFORE UPDATE ON return_versions
BEGIN
    SELECT RAISE(ABORT, 'return_versions is append-only');
END;
CREATE TRIGGER return_versions_no_delete BEFORE DELETE ON return_versions
BEGIN
    SELECT RAISE(ABORT, 'return_versions is append-only');
END;
CREATE TRIGGER return_attachments_no_update BEFORE UPDATE ON return_attachments
BEGIN
    SELECT RAISE(ABORT, 'return_attachments is append-only');
END;
CREATE TRIGGER return_attachments_no_delete BEFORE DELETE ON return_attachments
BEGIN
    SELECT RAISE(ABORT, 'return_attachments is append-only');
END;
