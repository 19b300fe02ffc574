-- Shared by every scenario (bench/bench.py runs wrk with these scripts).
-- Data (tokens, payor ids) comes from the Lua file named by BENCH_DATA, written by
-- bench.py after the seed; the figures go to the JSON file named by BENCH_OUT.
local data = dofile(os.getenv("BENCH_DATA"))
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

-- The k-th request of this thread across all threads: unique in the run.
function bench.next_index()
  local i = bench.tid + bench.threads * bench.n
  bench.n = bench.n + 1
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

function done(summary, latency, requests)
  local e = summary.errors
  local f = io.open(os.getenv("BENCH_OUT"), "w")
  f:write(string.format(
    '{"requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, ' ..
    '"latency_us": {"mean": %.1f, "p50": %d, "p90": %d, "p99": %d, "max": %d}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max))
  f:close()
end
