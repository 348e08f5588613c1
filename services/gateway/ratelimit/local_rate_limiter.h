#pragma once
// This replica's own rate windows, used while the shared ones in Redis cannot be reached
// (fail open, as Envoy's rate-limit filter does by default): each replica then admits up to
// the limit by itself. Bounded: at most `max_subjects` windows, idle ones dropped first;
// beyond that a new subject is admitted uncounted rather than evicting a busy one.

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "services/gateway/ratelimit/sliding_window.h"

namespace feedback::gateway {

class LocalRateLimiter {
 public:
  explicit LocalRateLimiter(std::size_t max_subjects = 100000)
      : max_per_shard_(std::max<std::size_t>(1, max_subjects / kShards)) {}

  RateDecision admit(std::string_view subject, int limit, int64_t now_ms);
  std::size_t subjects() const;

 private:
  static constexpr std::size_t kShards = 16;
  struct Shard {
    mutable std::mutex mutex;
    std::unordered_map<std::string, SlidingWindow> windows;
  };
  const std::size_t max_per_shard_;
  std::array<Shard, kShards> shards_;
};

}  // namespace feedback::gateway
