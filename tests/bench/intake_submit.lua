-- W4: the public one-shot submit (POST /i/{slug}/submit/) of a 5-answer response, every
-- request into the same link; the workspace's host comes from BENCH_HOST. Each request comes
-- from another respondent: the gateway trusts the bench's X-Forwarded-For (TRUSTED_PROXIES),
-- so the intake rate limit counts every respondent once, as it would with real traffic.
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

-- Threads number themselves (setup runs in the main state, `thread_id` is each thread's
-- global) so that their addresses never meet.
local threads_made = 0
function setup(thread)
  threads_made = threads_made + 1
  thread:set("thread_id", threads_made)
end

local counter = 0
function request()
  counter = counter + 1
  local n = counter * 16 + (thread_id or 0)
  wrk.headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.floor(n / 65536) % 256,
                                                 math.floor(n / 256) % 256, n % 256)
  return wrk.format()
end

-- BENCH_PACE_MS: each connection waits that long before each request (W6 sends a steady
-- 1,000 submissions/s with 20 connections waiting 20 ms each, rather than as many as it can).
local pace = tonumber(os.getenv("BENCH_PACE_MS") or "")
if pace then
  function delay()
    return pace
  end
end

done = report.done
