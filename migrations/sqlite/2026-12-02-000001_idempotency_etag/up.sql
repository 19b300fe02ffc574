-- A replayed response carries the first response's ETag too (the
-- Idempotency-Key draft: a retry gets the first response, headers included).
ALTER TABLE idempotency_keys ADD COLUMN response_etag TEXT;
