DROP INDEX idempotency_keys_by_age;
