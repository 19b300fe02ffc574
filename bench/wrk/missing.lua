-- GET /v1/municipalities/{m}/returns?period=2025-Q4&status=missing: the clerk's missing-returns list.
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
function request()
  local m = bench.muni()
  return bench.get("/v1/municipalities/" .. m.slug .. "/returns?period=2025-Q4&status=missing", m.token)
end
