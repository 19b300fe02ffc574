-- Indexes the benchmark harness found missing on hot paths (bench/results/README.md).
--
-- Every claim of an idempotency key first deletes the municipality's keys past
-- their retention (`db::idempotency::expire`): without this index, a scan of
-- all of the municipality's keys on every filing and payment.
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (municipality_id, created_at);

-- Account names are identifiers, ordered byte by byte: a payor's lines are the
-- range ['payor:ID:', 'payor:ID;') of the (municipality_id, account) index
-- (src/db/ledger.rs, prefix_range). Under a locale collation such as
-- en_US.UTF-8 punctuation is ignored at the first level and that range would
-- miss lines, so the column carries "C" whatever the database's locale.
ALTER TABLE ledger_lines ALTER COLUMN account TYPE TEXT COLLATE "C";
