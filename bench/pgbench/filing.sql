-- The SQL equivalent of filing a return (POST .../payors/{p}/returns), for pgbench:
-- the rows the service writes, in one transaction, as the runtime role with the
-- tenant set (row-level security in force): the idempotency record with its stored
-- answer, the return, its first version (the filing and the assessment as JSON text),
-- its journal with three lines, and the access log row. Row sizes follow a real
-- filing's (bench/README.md). Variables: municipality_id, payor_count (set by bench.py
-- with -D); bench_payors is the harness's table of the municipality's payors. pgbench
-- substitutes :name even inside string literals: a colon in a literal is chr(58).
\set k random(0, :payor_count - 1)
\set gross random(100000, 5000000)
BEGIN;
SELECT set_config('app.municipality_id', :municipality_id::text, true);
SELECT payor_id FROM bench_payors WHERE k = :k \gset
INSERT INTO idempotency_keys (municipality_id, actor, idem_key, fingerprint, state,
    response_status, response_location, response_body, created_at)
  VALUES (:municipality_id, 'user' || chr(58) || 'pgbench', gen_random_uuid()::text, md5(random()::text) || md5(random()::text),
    'done', 201, '/v1/municipalities/bench-001/payors/' || :payor_id::text || '/returns/x', repeat('x', 2400), now());
INSERT INTO tax_returns (municipality_id, id, payor_id, period, kind, created_at)
  VALUES (:municipality_id, gen_random_uuid()::text, :payor_id::text, 'pgbench-' || gen_random_uuid()::text, 'quarterly', now())
  RETURNING id AS return_id \gset
INSERT INTO return_versions (municipality_id, return_id, version, source, filed_on, received_on,
    entered_by, entered_as, gross_receipts_cents, exempt_receipts_cents, tax_cents, amount_due_cents,
    policy_version, filing, assessment, due_date, filing_due_date, created_at)
  VALUES (:municipality_id, :return_id::text, 1, 'filed', current_date, NULL, 'user' || chr(58) || 'pgbench', 'staff',
    :gross, 0, :gross * 55 / 1000, :gross * 55 / 1000, DATE '2020-01-01', repeat('f', 300), repeat('a', 1800),
    current_date + 30, current_date + 30, now());
INSERT INTO ledger_journals (municipality_id, id, posted_on, kind, cause_type, cause_id, memo, created_at)
  VALUES (:municipality_id, gen_random_uuid()::text, current_date, 'return_filed', 'return_version',
    :return_id::text || chr(58) || '1', 'return filed', now())
  RETURNING id AS journal_id \gset
INSERT INTO ledger_lines (municipality_id, journal_id, line_no, account, amount_cents) VALUES
  (:municipality_id, :journal_id::text, 1, 'payor' || chr(58) || :payor_id::text || chr(58) || 'tax', :gross * 55 / 1000),
  (:municipality_id, :journal_id::text, 2, 'municipality' || chr(58) || 'tax_revenue', -(:gross * 55 / 1000 - 100)),
  (:municipality_id, :journal_id::text, 3, 'municipality' || chr(58) || 'fee_revenue', -100);
INSERT INTO access_log (municipality_id, id, at, actor_kind, actor_id, basis, record_type,
    record_id, action, request_id)
  VALUES (:municipality_id, gen_random_uuid()::text, now(), 'user', 'pgbench', 'clerk_treasurer',
    'return', :return_id::text, 'create', gen_random_uuid()::text);
END;
