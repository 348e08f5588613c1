-- Each request from another respondent: the gateway trusts the bench's X-Forwarded-For
-- (TRUSTED_PROXIES), so the intake rate limit counts every respondent once, as it would with
-- real traffic. Threads number themselves (setup runs in the main state, `thread_id` is each
-- thread's global) so that their addresses never meet. `targets` (optional): {host, path}
-- pairs that requests go to in turn, instead of the Host header and the URL's path.
local respondents = {}

function respondents.install(targets)
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
    if targets then
      local target = targets[counter % #targets + 1]
      wrk.headers["Host"] = target.host
      return wrk.format(nil, target.path)
    end
    return wrk.format()
  end
end

return respondents
