-- Expenditure reports, the commission's review, inspection requests and the
-- commission roster (issue 10 items 3, 4 and 6). Same tables as
-- ../../postgres/2026-12-05-000002_expenditures/up.sql, which adds row-level
-- security. Every table is append-only: nothing is changed or removed.

-- A report of the tourism entity's spending of room-tax revenue (issue 10
-- item 3; Montello room tax, distribution ¶B: "The tourism entity shall
-- report at least annually to the commission the purposes for which the room
-- tax revenues it received were spent and the impact of such expenditures").
-- The report is its identity only; what it says is in its versions, each
-- written once and never changed: an amendment or a correction after a
-- return is a new version, the old one stays readable.
CREATE TABLE expenditure_reports (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    id TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (zone_id, id)
);

-- One version of a report: its period (at most one year) and the commission's
-- receipts in the period as the tourism entity declares them.
CREATE TABLE expenditure_report_versions (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    report_id TEXT NOT NULL,
    version BIGINT NOT NULL CHECK (version >= 1),
    period_start DATE NOT NULL,
    period_end DATE NOT NULL,
    received_declared_cents BIGINT NOT NULL CHECK (received_declared_cents >= 0),
    filed_by TEXT NOT NULL,
    filed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (zone_id, report_id, version),
    FOREIGN KEY (zone_id, report_id) REFERENCES expenditure_reports (zone_id, id),
    CHECK (period_start <= period_end)
);
CREATE INDEX expenditure_report_versions_by_period ON expenditure_report_versions (zone_id, period_start, period_end);

-- An expenditure listed on its own (every one of $1,000.00 or more must be:
-- Form SL-304 lists them), by category of Wis. Stat. § 66.0615(1)(fm).
CREATE TABLE expenditure_items (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    report_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    line BIGINT NOT NULL CHECK (line >= 1),
    spent_on DATE NOT NULL,
    payee TEXT NOT NULL,
    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
    category TEXT NOT NULL CHECK (category IN ('marketing_projects', 'tourist_information_services', 'tangible_municipal_development', 'administration', 'other')),
    description TEXT NOT NULL,
    explanation TEXT,
    PRIMARY KEY (zone_id, report_id, version, line),
    FOREIGN KEY (zone_id, report_id, version) REFERENCES expenditure_report_versions (zone_id, report_id, version),
    CHECK (category <> 'other' OR explanation IS NOT NULL)
);
CREATE INDEX expenditure_items_by_category ON expenditure_items (zone_id, category, spent_on);
CREATE INDEX expenditure_items_large ON expenditure_items (zone_id, amount_cents);

-- An impact measure of an item (inquiries, visits, room nights attributed),
-- with its source (ordinance ¶B: "track and measure the impact").
CREATE TABLE expenditure_impacts (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    report_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    line BIGINT NOT NULL,
    seq BIGINT NOT NULL CHECK (seq >= 1),
    measure TEXT NOT NULL CHECK (measure IN ('inquiries', 'visits', 'room_nights', 'website_sessions', 'event_attendance')),
    value BIGINT NOT NULL CHECK (value >= 0),
    source TEXT NOT NULL,
    PRIMARY KEY (zone_id, report_id, version, line, seq),
    FOREIGN KEY (zone_id, report_id, version, line) REFERENCES expenditure_items (zone_id, report_id, version, line)
);

-- Expenditures under $1,000.00 summed by category: a total and a count, so
-- that no single item of $1,000.00 or more can hide in one (the amount is
-- less than $1,000.00 times the count).
CREATE TABLE expenditure_sums (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    report_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    line BIGINT NOT NULL CHECK (line >= 1),
    category TEXT NOT NULL CHECK (category IN ('marketing_projects', 'tourist_information_services', 'tangible_municipal_development', 'administration', 'other')),
    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
    item_count BIGINT NOT NULL CHECK (item_count >= 1),
    description TEXT NOT NULL,
    explanation TEXT,
    PRIMARY KEY (zone_id, report_id, version, line),
    FOREIGN KEY (zone_id, report_id, version) REFERENCES expenditure_report_versions (zone_id, report_id, version),
    CHECK (amount_cents < 100000 * item_count),
    CHECK (category <> 'other' OR explanation IS NOT NULL)
);

-- The commission's review, one row per act: a comment or a question (on the
-- report or one item line), the tourism entity's answer to a question, the
-- acceptance of a version or its return for correction (with the reason).
-- seq orders a report's acts (1, 2, ...; unique, so two concurrent acts
-- cannot take the same place).
CREATE TABLE expenditure_reviews (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    id TEXT NOT NULL,
    report_id TEXT NOT NULL,
    seq BIGINT NOT NULL CHECK (seq >= 1),
    version BIGINT NOT NULL,
    act TEXT NOT NULL CHECK (act IN ('comment', 'question', 'answer', 'accept', 'return')),
    item_line BIGINT,
    answers TEXT,
    text TEXT,
    by_actor TEXT NOT NULL,
    at TIMESTAMP NOT NULL,
    PRIMARY KEY (zone_id, id),
    FOREIGN KEY (zone_id, report_id, version) REFERENCES expenditure_report_versions (zone_id, report_id, version),
    CHECK ((act = 'answer') = (answers IS NOT NULL)),
    UNIQUE (zone_id, report_id, seq)
);
CREATE INDEX expenditure_reviews_by_report ON expenditure_reviews (zone_id, report_id, at);
-- One decision per version, one answer per question.
CREATE UNIQUE INDEX expenditure_reviews_one_decision ON expenditure_reviews (zone_id, report_id, version)
    WHERE act IN ('accept', 'return');
CREATE UNIQUE INDEX expenditure_reviews_one_answer ON expenditure_reviews (zone_id, answers)
    WHERE act = 'answer';

-- Receipts and invoices on a report (the attachment rules of returns: PDF,
-- PNG or JPEG judged from the content, at most 10 MiB, with its SHA-256).
CREATE TABLE expenditure_attachments (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    id TEXT NOT NULL,
    report_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('receipt', 'invoice', 'other')),
    content_type TEXT NOT NULL,
    size_bytes BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    content BLOB NOT NULL,
    uploaded_by TEXT NOT NULL,
    uploaded_at TIMESTAMP NOT NULL,
    PRIMARY KEY (zone_id, id),
    FOREIGN KEY (zone_id, report_id) REFERENCES expenditure_reports (zone_id, id)
);

-- The zone's own access log: every read of an expenditure report's
-- attachment (issue 10 item 10). The municipal access_log is keyed by
-- municipality; a zone's records are the zone's, so its log is too.
CREATE TABLE zone_access_log (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    id TEXT NOT NULL,
    at TIMESTAMP NOT NULL,
    actor_kind TEXT NOT NULL,
    actor_id TEXT NOT NULL,
    basis TEXT NOT NULL,
    record_type TEXT NOT NULL,
    record_id TEXT NOT NULL,
    action TEXT NOT NULL,
    request_id TEXT NOT NULL,
    PRIMARY KEY (zone_id, id)
);
CREATE INDEX zone_access_log_by_record ON zone_access_log (zone_id, record_id, at);

-- A member municipality's request to inspect the tourism entity's or the
-- commission's records pertaining to the use of the room tax funds, which
-- they must allow "at reasonable times" (Montello room tax, distribution ¶B).
CREATE TABLE inspection_requests (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    id TEXT NOT NULL,
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    records_of TEXT NOT NULL CHECK (records_of IN ('tourism_entity', 'commission')),
    requested_on DATE NOT NULL,
    records TEXT NOT NULL,
    requested_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (zone_id, id)
);
CREATE INDEX inspection_requests_by_municipality ON inspection_requests (zone_id, municipality_id, requested_on);

-- The answer to an inspection request (one per request).
CREATE TABLE inspection_answers (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    request_id TEXT NOT NULL,
    answered_on DATE NOT NULL,
    inspection_on DATE,
    answer TEXT NOT NULL,
    answered_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (zone_id, request_id),
    FOREIGN KEY (zone_id, request_id) REFERENCES inspection_requests (zone_id, id)
);

-- The commission roster (Montello room tax, definitions, ZONE: "Membership of
-- the commission shall include at least 1/2 of its members drawn from
-- representatives of the Wisconsin lodging and tourism industry"; Wis. Stat.
-- § 66.0615(1m)(c)2). A membership is never deleted: its end is a row of
-- commission_roster_ends.
CREATE TABLE commission_roster (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    affiliation TEXT NOT NULL,
    represents_lodging_and_tourism_industry BOOLEAN NOT NULL,
    appointed_by BIGINT NOT NULL REFERENCES municipalities (id),
    term_start DATE NOT NULL,
    created_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (zone_id, id)
);

CREATE TABLE commission_roster_ends (
    zone_id BIGINT NOT NULL REFERENCES zones (id),
    member_id TEXT NOT NULL,
    term_end DATE NOT NULL,
    ended_by TEXT NOT NULL,
    ended_at TIMESTAMP NOT NULL,
    PRIMARY KEY (zone_id, member_id),
    FOREIGN KEY (zone_id, member_id) REFERENCES commission_roster (zone_id, id)
);

CREATE TRIGGER expenditure_reports_no_update BEFORE UPDATE ON expenditure_reports
BEGIN
    SELECT RAISE(ABORT, 'expenditure_reports is append-only');
END;
CREATE TRIGGER expenditure_reports_no_delete BEFORE DELETE ON expenditure_reports
BEGIN
    SELECT RAISE(ABORT, 'expenditure_reports is append-only');
END;
CREATE TRIGGER expenditure_report_versions_no_update BEFORE UPDATE ON expenditure_report_versions
BEGIN
    SELECT RAISE(ABORT, 'expenditure_report_versions is append-only');
END;
CREATE TRIGGER expenditure_report_versions_no_delete BEFORE DELETE ON expenditure_report_versions
BEGIN
    SELECT RAISE(ABORT, 'expenditure_report_versions is append-only');
END;
CREATE TRIGGER expenditure_items_no_update BEFORE UPDATE ON expenditure_items
BEGIN
    SELECT RAISE(ABORT, 'expenditure_items is append-only');
END;
CREATE TRIGGER expenditure_items_no_delete BEFORE DELETE ON expenditure_items
BEGIN
    SELECT RAISE(ABORT, 'expenditure_items is append-only');
END;
CREATE TRIGGER expenditure_impacts_no_update BEFORE UPDATE ON expenditure_impacts
BEGIN
    SELECT RAISE(ABORT, 'expenditure_impacts is append-only');
END;
CREATE TRIGGER expenditure_impacts_no_delete BEFORE DELETE ON expenditure_impacts
BEGIN
    SELECT RAISE(ABORT, 'expenditure_impacts is append-only');
END;
CREATE TRIGGER expenditure_sums_no_update BEFORE UPDATE ON expenditure_sums
BEGIN
    SELECT RAISE(ABORT, 'expenditure_sums is append-only');
END;
CREATE TRIGGER expenditure_sums_no_delete BEFORE DELETE ON expenditure_sums
BEGIN
    SELECT RAISE(ABORT, 'expenditure_sums is append-only');
END;
CREATE TRIGGER expenditure_reviews_no_update BEFORE UPDATE ON expenditure_reviews
BEGIN
    SELECT RAISE(ABORT, 'expenditure_reviews is append-only');
END;
CREATE TRIGGER expenditure_reviews_no_delete BEFORE DELETE ON expenditure_reviews
BEGIN
    SELECT RAISE(ABORT, 'expenditure_reviews is append-only');
END;
CREATE TRIGGER expenditure_attachments_no_update BEFORE UPDATE ON expenditure_attachments
BEGIN
    SELECT RAISE(ABORT, 'expenditure_attachments is append-only');
END;
CREATE TRIGGER expenditure_attachments_no_delete BEFORE DELETE ON expenditure_attachments
BEGIN
    SELECT RAISE(ABORT, 'expenditure_attachments is append-only');
END;
CREATE TRIGGER zone_access_log_no_update BEFORE UPDATE ON zone_access_log
BEGIN
    SELECT RAISE(ABORT, 'zone_access_log is append-only');
END;
CREATE TRIGGER zone_access_log_no_delete BEFORE DELETE ON zone_access_log
BEGIN
    SELECT RAISE(ABORT, 'zone_access_log is append-only');
END;
CREATE TRIGGER inspection_requests_no_update BEFORE UPDATE ON inspection_requests
BEGIN
    SELECT RAISE(ABORT, 'inspection_requests is append-only');
END;
CREATE TRIGGER inspection_requests_no_delete BEFORE DELETE ON inspection_requests
BEGIN
    SELECT RAISE(ABORT, 'inspection_requests is append-only');
END;
CREATE TRIGGER inspection_answers_no_update BEFORE UPDATE ON inspection_answers
BEGIN
    SELECT RAISE(ABORT, 'inspection_answers is append-only');
END;
CREATE TRIGGER inspection_answers_no_delete BEFORE DELETE ON inspection_answers
BEGIN
    SELECT RAISE(ABORT, 'inspection_answers is append-only');
END;
CREATE TRIGGER commission_roster_no_update BEFORE UPDATE ON commission_roster
BEGIN
    SELECT RAISE(ABORT, 'commission_roster is append-only');
END;
CREATE TRIGGER commission_roster_no_delete BEFORE DELETE ON commission_roster
BEGIN
    SELECT RAISE(ABORT, 'commission_roster is append-only');
END;
CREATE TRIGGER commission_roster_ends_no_update BEFORE UPDATE ON commission_roster_ends
BEGIN
    SELECT RAISE(ABORT, 'commission_roster_ends is append-only');
END;
CREATE TRIGGER commission_roster_ends_no_delete BEFORE DELETE ON commission_roster_ends
BEGIN
    SELECT RAISE(ABORT, 'commission_roster_ends is append-only');
END;
