-- The key the payor list's `name` filter matches: the legal name in lower case,
-- maintained by the service (Rust's Unicode `to_lowercase`, so `Ä` matches `ä`).
-- Existing rows are keyed with lower() here; FORCE is lifted for the backfill
-- only, inside this migration's transaction (the owner is bound by row-level
-- security otherwise and would see no row), and restored before it commits.
ALTER TABLE payors ADD COLUMN legal_name_key TEXT NOT NULL DEFAULT '';
ALTER TABLE payors NO FORCE ROW LEVEL SECURITY;
UPDATE payors SET legal_name_key = lower(legal_name);
ALTER TABLE payors FORCE ROW LEVEL SECURITY;
CREATE INDEX payors_by_name_key ON payors (municipality_id, legal_name_key);
