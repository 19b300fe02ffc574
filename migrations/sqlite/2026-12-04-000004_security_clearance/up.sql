-- Security deposits and clearance certificates (issue 9, items 7 and 8). Same
-- tables as ../../postgres/2026-12-04-000004_security_clearance/up.sql, which
-- adds row-level security and the privileges.

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

CREATE TRIGGER security_deposits_no_update BEFORE UPDATE ON security_deposits
BEGIN
    SELECT RAISE(ABORT, 'security_deposits is append-only');
END;
CREATE TRIGGER security_deposits_no_delete BEFORE DELETE ON security_deposits
BEGIN
    SELECT RAISE(ABORT, 'security_deposits is append-only');
END;

CREATE TRIGGER security_events_no_update BEFORE UPDATE ON security_events
BEGIN
    SELECT RAISE(ABORT, 'security_events is append-only');
END;
CREATE TRIGGER security_events_no_delete BEFORE DELETE ON security_events
BEGIN
    SELECT RAISE(ABORT, 'security_events is append-only');
END;

CREATE TRIGGER clearance_certificates_no_update BEFORE UPDATE ON clearance_certificates
BEGIN
    SELECT RAISE(ABORT, 'clearance_certificates is append-only');
END;
CREATE TRIGGER clearance_certificates_no_delete BEFORE DELETE ON clearance_certificates
BEGIN
    SELECT RAISE(ABORT, 'clearance_certificates is append-only');
END;
