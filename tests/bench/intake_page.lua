-- W7: the intake page (GET /i/{slug}) as respondents open it, each from another address
-- (respondents.lua); the workspace's host comes from BENCH_HOST.
package.path = package.path .. ";" .. os.getenv("BENCH_LUA_DIR") .. "/?.lua"
local report = require("report")
wrk.headers["Host"] = os.getenv("BENCH_HOST")
wrk.headers["Accept"] = "text/html"
require("respondents").install()
done = report.done
