-- W0/W1/W3: GET of one document; the bearer key comes from BENCH_KEY.
package.path = package.path .. ";" .. os.getenv("BENCH_LUA_DIR") .. "/?.lua"
local report = require("report")
local key = os.getenv("BENCH_KEY")
if key and key ~= "" then wrk.headers["Authorization"] = "Bearer " .. key end
wrk.headers["Accept"] = "application/json"
-- BENCH_NO_CACHE=1: pages read afresh rather than served from the gateway's kept pages.
if os.getenv("BENCH_NO_CACHE") == "1" then wrk.headers["Cache-Control"] = "no-cache" end
done = report.done
