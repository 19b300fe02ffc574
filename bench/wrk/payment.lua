-- POST .../payors/{p}/payments: recording a payment (idempotency key, allocation, journal).
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")
function request()
  local i = bench.next_index()
  local m, p = bench.payor()
  local key = bench.key("payment", i)
  local cents = math.random(100, 300000)
  local body = string.format(
    '{"received_on":"%s","amount":"%d.%02d","method":"ach","reference":%s}',
    bench.data.today, math.floor(cents / 100), cents % 100, key)
  return bench.post("/v1/municipalities/" .. m.slug .. "/payors/" .. p .. "/payments",
    m.token, body, key)
end
