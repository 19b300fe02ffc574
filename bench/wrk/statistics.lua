-- GET /v1/zones/{zone}/statistics?year=2025: the public statistics (small cells withheld).
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
function request()
  return bench.get("/v1/zones/" .. bench.data.zone .. "/statistics?year=2025")
end
