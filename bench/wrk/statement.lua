-- GET .../payors/{p}/account: a payor's statement of account (a year of returns and payments).
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
function request()
  local m, p = bench.payor()
  return bench.get("/v1/municipalities/" .. m.slug .. "/payors/" .. p .. "/account?as_of=" .. bench.data.today, m.token)
end
