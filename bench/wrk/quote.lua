-- POST /v1/municipalities/{m}/quotes: pure computation on the municipality's policy.
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
function request()
  local m = bench.muni()
  local cents = math.random(100000, 5000000)
  local body = string.format('{"period":"2026-Q1","gross_receipts":"%d.%02d"}', math.floor(cents / 100), cents % 100)
  return bench.post("/v1/municipalities/" .. m.slug .. "/quotes", nil, body)
end
