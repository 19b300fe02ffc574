-- GET /healthz: the bare framework, the anchor every ratio is taken against.
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
function request() return bench.get("/healthz") end
