-- GET .../payors/{p}: one payor's registry record, the least a confidential read costs (the
-- caller in its municipality, one row, the access-log entry committed before the answer).
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
function request()
  local m, p = bench.payor()
  return bench.get("/v1/municipalities/" .. m.slug .. "/payors/" .. p, m.token)
end
