-- W0/W1: GET of one document; the bearer key comes from BENCH_KEY.
package.path = package.path .. ";" .. os.getenv("BENCH_LUA_DIR") .. "/?.lua"
local report = require("report")
local key = os.getenv("BENCH_KEY")
if key and key ~= "" then wrk.headers["Authorization"] = "Bearer " .. key end
wrk.headers["Accept"] = "application/json"
done = report.done
