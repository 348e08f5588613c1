-- W2: POST /v1/links/ with 5 questions; every request gets a unique slug.
package.path = package.path .. ";" .. os.getenv("BENCH_LUA_DIR") .. "/?.lua"
local report = require("report")
local key = os.getenv("BENCH_KEY")
local run = os.getenv("BENCH_RUN") or "0"
local counter = 0
local threads = {}

-- Sets the global `thread_id` in each thread's own Lua state (so it must not be a local).
function setup(thread)
  thread:set("thread_id", #threads + 1)
  table.insert(threads, thread)
end

wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer " .. key
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"

local template = '{"name":"Bench %s","slug":"b%s-%d-%d","questions":[' ..
  '{"prompt":"How likely are you to recommend us?","type":"rating","field_key":"nps",' ..
  '"configuration":{"scale_type":"nps","max_value":10},"required":true},' ..
  '{"prompt":"What is the main reason for your score?","type":"voice","field_key":"reason",' ..
  '"configuration":{"max_duration":120,"enable_ai_evaluation":true}},' ..
  '{"prompt":"Which features do you use?","type":"multiple_choice","field_key":"features",' ..
  '"configuration":{"options":["Forms","Voice","Insights","Webhooks"],"allow_multiple":true}},' ..
  '{"prompt":"Your email","type":"email","field_key":"email"},' ..
  '{"prompt":"Anything else?","type":"text","field_key":"comments",' ..
  '"condition":{"field":"nps","operator":"less_than","value":7}}]}'

function request()
  counter = counter + 1
  return wrk.format(nil, nil, nil, string.format(template, run, run, thread_id or 0, counter))
end

done = report.done
