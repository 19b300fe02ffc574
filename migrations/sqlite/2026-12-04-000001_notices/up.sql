-- Written notices (issue 9, item 10): determination and estimate notices,
-- security-application notices, delinquency letters, clearance certificates.
-- Same table as ../../postgres/2026-12-04-000001_notices/up.sql, which adds
-- row-level security and the privileges.
--
-- A notice is a document as issued: never changed (a corrected notice is a
-- new notice). `content` is the notice's text as JSON (domain::notice::NoticeDraft:
-- title, addressee, paragraphs, amounts, citations) from which the document
-- is rendered; `journal_id` is the ledger journal it reports (NULL for a
-- letter that posts nothing); `cause_type`/`cause_id` name what it is about
-- (a determination, a security deposit, ...), as the ledger's journals do.
-- Confidential like returns: the payor's name, address and amounts.
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

CREATE TRIGGER notices_no_update BEFORE UPDATE ON notices
BEGIN
    SELECT RAISE(ABORT, 'notices is append-only (issue a new notice instead)');
END;
CREATE TRIGGER notices_no_delete BEFORE DELETE ON notices
BEGIN
    SELECT RAISE(ABORT, 'notices is append-only (issue a new notice instead)');
END;

-- The document as sent: the PDF rendered when the notice was issued
-- (render::pdf), stored so that what the payor received can be shown again
-- byte for byte whatever later changes the renderer; `sha256` is its hex
-- digest. One per notice, append-only like the notice.
CREATE TABLE notice_documents (
    municipality_id BIGINT NOT NULL REFERENCES municipalities (id),
    notice_id TEXT NOT NULL,
    media_type TEXT NOT NULL,
    bytes BLOB NOT NULL,
    sha256 TEXT NOT NULL,
    PRIMARY KEY (municipality_id, notice_id),
    FOREIGN KEY (municipality_id, notice_id) REFERENCES notices (municipality_id, id)
);
CREATE TRIGGER notice_documents_no_update BEFORE UPDATE ON notice_documents
BEGIN
    SELECT RAISE(ABORT, 'notice_documents is append-only (issue a new notice instead)');
END;
CREATE TRIGGER notice_documents_no_delete BEFORE DELETE ON notice_documents
BEGIN
    SELECT RAISE(ABORT, 'notice_documents is append-only (issue a new notice instead)');
END;
