-- GET /v1/me: an authenticated read (the caller's grants).
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
function request() return bench.get("/v1/me", bench.muni().token) end
