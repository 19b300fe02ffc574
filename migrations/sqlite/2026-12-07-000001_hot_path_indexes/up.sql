-- Indexes the benchmark harness found missing on hot paths (bench/results/README.md).
--
-- Every claim of an idempotency key first deletes the municipality's keys past
-- their retention (`db::idempotency::expire`); without this index that delete
-- scanned all of the municipality's keys, reading each stored response (the
-- column created_at sits after response_body) on every filing and payment.
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (municipality_id, created_at);

-- ledger_lines.account keeps SQLite's default BINARY collation: the byte order
-- the payor range of src/db/ledger.rs (prefix_range) needs, on the existing
-- (municipality_id, account) index. PostgreSQL's column changes to COLLATE "C".
