-- POST .../payors/{p}/returns: filing a return (idempotency key, computation, return row,
-- ledger journal, access log). Each request files a (payor, period) not filed before:
-- the seed filed 2025; this files 2026-Q1, -Q2, -Q3, payor by payor.
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
local periods = { "2026-Q1", "2026-Q2", "2026-Q3" }
function request()
  local i = bench.next_index()
  local np = #bench.data.payors
  local p = bench.data.payors[(i % np) + 1]
  local period = periods[(math.floor(i / np) % #periods) + 1]
  local m = bench.data.munis[p[1]]
  local cents = math.random(100000, 5000000)
  local body = string.format(
    '{"period":"%s","gross_receipts":"%d.%02d","exemptions":[],' ..
    '"signer":{"name":"Bench Signer","title":"Owner"},"attested":true}',
    period, math.floor(cents / 100), cents % 100)
  return bench.post("/v1/municipalities/" .. m.slug .. "/payors/" .. p[2] .. "/returns",
    m.token, body, bench.key("filing", i))
end
