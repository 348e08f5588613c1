#pragma once
// The shared rate window in Redis: SlidingWindow's steps (sliding_window.h) as one Lua
// script, so that every gateway replica counts in the same window atomically.
//
//   fb:rate:{<subject>}  hash: 'h' oldest second holding a count, 'n' newest second seen,
//                        't' requests counted, and '<second>' = requests admitted in it.
// An API key's subject is its hash, so its window shares the hash tag (one Redis Cluster
// slot) with its cached record fb:key:{<hash>}, which this script reads for the limit.
//
// KEYS[1] the window; KEYS[2] (API keys only) the key's cached record, "v2:<limit>:..."
// ARGV[1] the limit when no record is given; ARGV[2] window seconds;
// ARGV[3] now in Unix ms, or "" for Redis's own clock: one clock for every replica, so
//         their skew cannot widen the window.
// ARGV[4..6] grants (sliding_window.h): the least limit that gets them ("" for none), the
//         share and the most at once.
// Answers {admitted 0|1, limit, remaining, reset ms, retry-after ms, record, granted,
// ms left in the current second}, or {-1, record}
// when the record is absent or has no limit (the caller counts again with the limit it
// learns). The record (nil without KEYS[2]) comes back so that the key's lookup needs no
// command of its own: the script is the key's lookup (RedisKeyAuthenticator).

#include <optional>
#include <string>
#include <string_view>

#include "common/redis/redis_client.h"

namespace feedback::gateway::ratewindow {

inline constexpr std::string_view kScript = R"lua(
local limit, record
if KEYS[2] then
  record = redis.call('GET', KEYS[2])
  limit = record and tonumber(string.match(record, '^v2:(%d+):'))
  if not limit then return {-1, record} end
else
  limit = tonumber(ARGV[1])
end
local window = tonumber(ARGV[2])
local now_ms = tonumber(ARGV[3])
if not now_ms then
  local t = redis.call('TIME')
  now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local w = KEYS[1]
local now = math.floor(now_ms / 1000)
-- The state and the bucket of the current second, in one read.
local state = redis.call('HMGET', w, 'h', 'n', 't', now)
local head, newest, total = tonumber(state[1]), tonumber(state[2]), tonumber(state[3]) or 0
local current = tonumber(state[4]) or 0
if newest and now < newest then
  now = newest
  now_ms = math.max(now_ms, now * 1000)
  current = tonumber(redis.call('HGET', w, now)) or 0
end
local first = now - window + 1
-- The fields h and n and the key's lifetime change only in a new second or on expiry; a
-- refusal writes nothing unless buckets expired.
local moved, expired = newest ~= now, false
if total > 0 then
  if newest < first then
    redis.call('DEL', w)
    total, expired = 0, true
  elseif head < first then
    expired = true
    while head < first do
      local c = tonumber(redis.call('HGET', w, head))
      if c then
        total = total - c
        redis.call('HDEL', w, head)
      end
      head = head + 1
    end
    if total > 0 then
      while redis.call('HEXISTS', w, head) == 0 do head = head + 1 end
    end
  end
end
local admitted = 0
local granted = 0
if total < limit then
  admitted = 1
  local grant_min = tonumber(ARGV[4])
  if grant_min and limit >= grant_min then
    granted = math.floor((limit - total - 1) / tonumber(ARGV[5]))
    granted = math.max(0, math.min(current, granted, tonumber(ARGV[6])))
  end
  local was = total
  total = total + 1 + granted
  if was == 0 then head = now end
  if moved or expired or was == 0 then
    redis.call('HSET', w, now, current + 1 + granted, 'h', head, 'n', now, 't', total)
    redis.call('PEXPIRE', w, (window + 1) * 1000)
  else
    redis.call('HSET', w, now, current + 1 + granted, 't', total)
  end
elseif expired then
  if total > 0 then
    redis.call('HSET', w, 'h', head, 'n', now, 't', total)
    redis.call('PEXPIRE', w, (window + 1) * 1000)
  else
    redis.call('DEL', w)
  end
end
local remaining = math.max(0, limit - total)
local reset_ms, retry_ms = 0, 0
if total > 0 then reset_ms = (head + window) * 1000 - now_ms end
if admitted == 0 then
  if limit <= 0 or total == 0 then
    retry_ms = window * 1000
  else
    local need, dropped, second = total - limit + 1, 0, head
    while dropped < need do
      dropped = dropped + (tonumber(redis.call('HGET', w, second)) or 0)
      second = second + 1
    end
    retry_ms = (second - 1 + window) * 1000 - now_ms
  end
  reset_ms = retry_ms
end
return {admitted, limit, remaining, reset_ms, retry_ms, record or false, granted,
        (now + 1) * 1000 - now_ms}
)lua";

// The key record in an answer of the script run with KEYS[2] (nil when the key is not
// cached); the answer itself when it is no array (an error), nullopt when there is none.
inline std::optional<RedisReply> keyRecordIn(const std::optional<RedisReply>& answer) {
  if (!answer || answer->type != RedisReply::Type::kArray) return answer;
  const auto& e = answer->elements;
  // {-1, record} uncounted, {admitted, limit, remaining, reset, retry, record, ...} counted; a
  // nil record at the end of a Lua array is dropped.
  const std::size_t at = !e.empty() && e[0].integer < 0 ? 1 : 5;
  return at < e.size() ? e[at] : RedisReply{};
}

inline std::string redisKey(std::string_view subject) {
  std::string out = "fb:rate:{";
  out += subject;
  out += '}';
  return out;
}

}  // namespace feedback::gateway::ratewindow
