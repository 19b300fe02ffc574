-- GET /v1/zones/{zone}/remittances?year=2025: every member's quarters (the zone administrator).
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
function request()
  return bench.get("/v1/zones/" .. bench.data.zone .. "/remittances?year=2025", bench.data.admin)
end
