-- POST /v1/municipalities/montello/quotes on the demo database (bench/instructions.sh):
-- the quote scenario's body (a quarter, random gross receipts) without the harness's seed.
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
function request()
  local cents = math.random(100000, 5000000)
  local body = string.format('{"period":"2026-Q1","gross_receipts":"%d.%02d"}', math.floor(cents / 100), cents % 100)
  return wrk.format("POST", "/v1/municipalities/montello/quotes", nil, body)
end
