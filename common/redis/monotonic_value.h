#pragma once
// Values in Redis that only ever go up (link versions, response counts): writers and fillers
// may arrive in any order, and a lower value never replaces a higher one.

#include <string_view>

namespace feedback::redisvalue {

// KEYS[1] = key, ARGV[1] = value, ARGV[2] = TTL in seconds. Sets the key unless it already
// holds a value at least as high; returns 1 when it did.
inline constexpr std::string_view kRaiseScript =
    "local current = redis.call('GET', KEYS[1]) "
    "if current and tonumber(current) >= tonumber(ARGV[1]) then return 0 end "
    "redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) return 1";

}  // namespace feedback::redisvalue
