-- Shared by every scenario: at the end wrk prints one JSON line with the figures the bench
-- script needs (requests/s, latency percentiles in microseconds, error counts).
local M = {}

-- `unexpected`: answers of another status than the scenario expects, when it expects an
-- error status (W5 expects 429); else every status of 400 and above counts.
function M.done(summary, latency, requests, unexpected)
  local seconds = summary.duration / 1000000
  local errors = summary.errors
  local non2xx = unexpected or errors.status
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"seconds":%.3f,"rps":%.1f,"p50_us":%d,"p99_us":%d,' ..
    '"max_us":%d,"non2xx":%d,"connect_errors":%d,"read_errors":%d,"write_errors":%d,' ..
    '"timeouts":%d}\n',
    summary.requests, seconds, summary.requests / seconds, latency:percentile(50),
    latency:percentile(99), latency.max, non2xx, errors.connect, errors.read,
    errors.write, errors.timeout))
end

return M
