-- W4: the public one-shot submit (POST /i/{slug}/submit/) of a 5-answer response, every
-- request into the same link; the workspace's host comes from BENCH_HOST.
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

done = report.done
