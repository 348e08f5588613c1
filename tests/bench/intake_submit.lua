-- W4: the public one-shot submit (POST /i/{slug}/submit/) of a 5-answer response (or of the
-- body in BENCH_BODY_FILE), every
-- request into the same link; the workspace's host comes from BENCH_HOST; each request from
-- another respondent (respondents.lua).
package.path = package.path .. ";" .. os.getenv("BENCH_LUA_DIR") .. "/?.lua"
local report = require("report")

wrk.method = "POST"
wrk.headers["Host"] = os.getenv("BENCH_HOST")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"
wrk.body = '{"respondent_email":"respondent@example.com","answers":{' ..
  '"nps":6,"reason":"The reports are slow when many people answer at once",' ..
  '"features":["Forms","Voice"],"team":"small",' ..
  '"comments":"Please make exports faster for large surveys"}}'
-- BENCH_BODY_FILE: another body ("W4, 32 types": tests/bench/answers_32_types.json).
local body_file = os.getenv("BENCH_BODY_FILE")
if body_file and body_file ~= "" then
  local f = assert(io.open(body_file, "r"))
  wrk.body = f:read("*a")
  f:close()
end

-- BENCH_TARGETS: "host path,host path": requests go to each in turn (W8: a workspace with a
-- webhook and one without), instead of to BENCH_HOST and the URL's path.
local targets = nil
for host, path in string.gmatch(os.getenv("BENCH_TARGETS") or "", "([^,%s]+) ([^,]+)") do
  targets = targets or {}
  targets[#targets + 1] = {host = host, path = path}
end
require("respondents").install(targets)

-- BENCH_RATE: requests per second in all (W6's steady 1,000 submissions/s), rather than as
-- many as the connections can send. Each thread schedules its share on the wall clock
-- (LuaJIT's FFI: Lua has no clock finer than a second), so answers that come late do not
-- lower the rate while connections are free.
local rate = tonumber(os.getenv("BENCH_RATE") or "")
if rate then
  local ffi = require("ffi")
  ffi.cdef("typedef struct { long tv_sec; long tv_usec; } bench_timeval;" ..
           "int gettimeofday(bench_timeval *tv, void *tz);")
  local tv = ffi.new("bench_timeval")
  local function now_ms()
    ffi.C.gettimeofday(tv, nil)
    return tonumber(tv.tv_sec) * 1000 + tonumber(tv.tv_usec) / 1000
  end
  local threads = tonumber(os.getenv("BENCH_THREADS") or "2")
  local interval = 1000 * threads / rate
  local next_at = nil
  function delay()
    local now = now_ms()
    next_at = math.max(next_at or now, now - 100) + interval
    return math.max(0, math.floor(next_at - now))
  end
end

done = report.done
