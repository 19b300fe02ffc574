DROP TABLE idempotency_keys;
DROP TABLE marketplace_reports;
DROP TABLE return_extensions;
DROP TABLE return_attachments;
DROP TABLE return_versions;
DROP TABLE tax_returns;
DROP FUNCTION returns_append_only();
