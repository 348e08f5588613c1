#include "services/gateway/ratelimit/local_rate_limiter.h"

#include <functional>

namespace feedback::gateway {

RateDecision LocalRateLimiter::admit(std::string_view subject, int limit, int64_t now_ms) {
  Shard& shard = shards_[std::hash<std::string_view>{}(subject) % kShards];
  std::lock_guard lock(shard.mutex);
  auto it = shard.windows.find(subject);
  if (it == shard.windows.end()) {
    // A clock stepped back sweeps too, rather than not until it has caught up.
    const bool sweep_due = now_ms - shard.swept_ms >= 1000 || now_ms < shard.swept_ms;
    if (shard.windows.size() >= max_per_shard_ && sweep_due) {
      shard.swept_ms = now_ms;
      std::erase_if(shard.windows,
                    [now_ms](const auto& entry) { return entry.second.idleAt(now_ms); });
    }
    if (shard.windows.size() >= max_per_shard_) {
      return RateDecision{true, limit, std::max(0, limit - 1), kRateWindowSeconds * 1000, 0};
    }
    it = shard.windows.emplace(std::string(subject), SlidingWindow{}).first;
  }
  return it->second.admit(now_ms, limit);
}

std::size_t LocalRateLimiter::subjects() const {
  std::size_t total = 0;
  for (const auto& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    total += shard.windows.size();
  }
  return total;
}

}  // namespace feedback::gateway
