-- The key the payor list's `name` filter matches: the legal name in lower case,
-- maintained by the service (Rust's Unicode `to_lowercase`, so `Ä` matches `ä`;
-- SQLite's own lower() folds ASCII only). Rows stored before this migration get
-- lower(legal_name) here (ASCII folding on SQLite) until their next update.
ALTER TABLE payors ADD COLUMN legal_name_key TEXT NOT NULL DEFAULT '';
UPDATE payors SET legal_name_key = lower(legal_name);
CREATE INDEX payors_by_name_key ON payors (municipality_id, legal_name_key);
