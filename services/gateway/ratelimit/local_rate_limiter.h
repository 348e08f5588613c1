#pragma once
// This replica's own rate windows: used while the shared ones in Redis cannot be reached
// (fail open, as Envoy's rate-limit filter does by default), each replica then admitting up to
// the limit by itself; and for views of the intake page (RateWindow::kReplica). Bounded: at
// most `max_subjects` windows. When full, idle ones are dropped, at most once a second per
// shard (a sweep visits every window of its shard: once per new subject, a flood of new
// client addresses cost a scan each); a new subject that finds no room is admitted uncounted
// rather than evicting a busy one.

#include <array>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/core/text_map.h"
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
    TextMap<SlidingWindow> windows;
    int64_t swept_ms = 0;  // when idle windows were last dropped
  };
  const std::size_t max_per_shard_;
  std::array<Shard, kShards> shards_;
};

}  // namespace feedback::gateway
