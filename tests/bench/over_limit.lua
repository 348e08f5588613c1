-- W5: GETs with a key that is over its rate limit: every answer must be refused (the cost of
-- refusing). The key comes from BENCH_KEY. A response() callback would make wrk parse every
-- answer's headers into Lua and slow the load generator on this shared machine, so any
-- answer below 400 counts as an error here, and bench.py checks samples before and after
-- for 429 RATE_LIMITED with Retry-After.
package.path = package.path .. ";" .. os.getenv("BENCH_LUA_DIR") .. "/?.lua"
local report = require("report")
wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_KEY")
wrk.headers["Accept"] = "application/json"

function done(summary, latency, requests)
  report.done(summary, latency, requests, summary.requests - summary.errors.status)
end
