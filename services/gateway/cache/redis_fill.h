#pragma once
// Filling the shared Redis after reading from a service: values only ever go up
// (common/redis/monotonic_value.h), so a fill never hides a newer value written meanwhile.
// Fire and forget: a fill that fails only costs a later cache miss.

#include <cstdint>
#include <string>

#include "common/redis/monotonic_value.h"
#include "common/redis/redis_client.h"

namespace feedback::gateway {

inline void raiseInRedis(RedisClient& redis, std::string key, int64_t value, int ttl_seconds) {
  redis.command({"EVAL", std::string(redisvalue::kRaiseScript), "1", std::move(key),
                 std::to_string(value), std::to_string(ttl_seconds)},
                [](std::optional<RedisReply>) {});
}

}  // namespace feedback::gateway
