-- GET /v1/municipalities/{m}/state-report?year=2025: Form SL-304's figures (public).
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
function request()
  return bench.get("/v1/municipalities/" .. bench.muni().slug .. "/state-report?year=2025")
end
