ALTER TABLE ledger_lines ALTER COLUMN account TYPE TEXT COLLATE "default";
DROP INDEX idempotency_keys_by_age;
