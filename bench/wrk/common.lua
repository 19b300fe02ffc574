-- Shared by every scenario (bench/bench.py runs wrk with these scripts).
-- Data (tokens, payor ids) comes from the Lua file named by BENCH_DATA, written by
-- bench.py after the seed; the figures go to the JSON file named by BENCH_OUT.
local data = dofile(os.getenv("BENCH_DATA"))
-- The payors, `municipality-index payor-id` a line (a table literal that large would
-- pass Lua's limit of constants in one function).
data.payors = {}
for line in io.lines(data.payors_file) do
  local m, id = line:match("^(%d+) (%S+)$")
  data.payors[#data.payors + 1] = { tonumber(m), id }
end
bench = { data = data }

local threads = {}
local next_id = 0
function setup(thread)
  thread:set("tid", next_id)
  thread:set("nthreads_hint", 0)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  -- tid and the thread count are set by setup() before init runs.
  math.randomseed(os.time() + (tid or 0) * 7919)
  bench.tid = tid or 0
  bench.threads = tonumber(os.getenv("BENCH_THREADS")) or 1
  bench.n = 0
  if bench.init then bench.init() end
end

-- A municipality and one of its payors, at random.
function bench.payor()
  local p = data.payors[math.random(#data.payors)]
  return data.munis[p[1]], p[2]
end

function bench.muni()
  return data.munis[math.random(#data.munis)]
end

-- The k-th request of this thread across all threads: unique in the run, and after
-- every index an earlier pass of the same scenario used (BENCH_INDEX_BASE, from that
-- pass's max_index), so the half-peak pass files and pays what was not yet filed or paid.
local index_base = tonumber(os.getenv("BENCH_INDEX_BASE") or "") or 0
last_index = -1
function bench.next_index()
  local i = index_base + bench.tid + bench.threads * bench.n
  bench.n = bench.n + 1
  last_index = i
  return i
end

function bench.key(kind, i)
  return string.format('"bench-%s-%s-%d"', data.run, kind, i)
end

function bench.get(path, token)
  local headers = {}
  if token then headers["Authorization"] = "Bearer " .. token end
  return wrk.format("GET", path, headers)
end

function bench.post(path, token, body, key)
  local headers = { ["Content-Type"] = "application/json" }
  if token then headers["Authorization"] = "Bearer " .. token end
  if key then headers["Idempotency-Key"] = key end
  return wrk.format("POST", path, headers, body)
end

-- The half-peak pass (bench.py sets BENCH_PACE_MS): each connection waits about
-- that long between its requests (uniform jitter around it, so connections do not
-- march in step), which holds the rate near half the peak just measured; its p99 is
-- the latency a client sees when the service is not saturated.
local pace = tonumber(os.getenv("BENCH_PACE_MS") or "")
if pace and pace > 0 then
  function delay()
    return math.random(0, 2 * pace)
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  local max_index = -1
  for _, t in ipairs(threads) do
    local li = t:get("last_index")
    if li and li > max_index then max_index = li end
  end
  local f = io.open(os.getenv("BENCH_OUT"), "w")
  f:write(string.format(
    '{"requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"max_index": %d, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, ' ..
    '"latency_us": {"mean": %.1f, "p50": %d, "p90": %d, "p99": %d, "max": %d}}\n',
    summary.requests, summary.duration, summary.bytes, max_index,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max))
  f:close()
end
