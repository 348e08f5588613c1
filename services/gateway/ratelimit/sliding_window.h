#pragma once
// The rate limit's arithmetic (docs/api.md "Plans and rate limits"): a sliding window of
// per-second buckets. A request is admitted when the requests admitted in the last 60 whole
// seconds (this one included) are fewer than the limit, so no 60 consecutive seconds ever hold
// more than the limit, edges included; refused requests count for nothing. Memory is 60
// counters whatever the rate, where a log of timestamps would grow with it. A token bucket
// (GCRA) is not used because it admits a full burst and then its refill within the same
// minute.
//
// This class is the local limiter's state (Redis unreachable) and the reference the Redis
// script (rate_window_script.h) is checked against: both follow the same steps.

#include <array>
#include <cstdint>

namespace feedback::gateway {

inline constexpr int kRateWindowSeconds = 60;

// Grants: an admitted request of a busy key with a high limit also reserves a few more
// requests of the current second, which its replica then admits without asking Redis until
// that second ends (LocalGrants). They are counted when reserved, so the window never holds
// more than the limit; one not spent before its second ends is lost, which is why only keys
// of at least kGrantMinLimit per minute get them, only as many as that second has already
// seen (a busy key), and at most 1/kGrantShare of what the window has left.
inline constexpr int kGrantMinLimit = 1200;
inline constexpr int kGrantShare = 16;
inline constexpr int kGrantMax = 5000;

struct RateDecision {
  bool admitted = true;
  int limit = 0;
  // Requests still admitted in the current window.
  int remaining = 0;
  // Until the oldest request counted leaves the window (remaining grows), or for a refused
  // request until one would be admitted.
  int64_t reset_ms = 0;
  // Refused only: until a request would be admitted; at least 1 ms.
  int64_t retry_after_ms = 0;
  // Admitted with grants: how many more were reserved, and how long their second lasts.
  int64_t granted = 0;
  int64_t second_left_ms = 0;
};

// What the shared window in Redis answered an admission (rate_window_script.h): counted, with
// its decision; not counted (an API key whose record is not cached: admit it again with its
// limit); or no answer (Redis unreachable: a degraded decision).
struct AdmissionAnswer {
  enum class Outcome { kCounted, kUncounted, kNoAnswer };
  Outcome outcome = Outcome::kNoAnswer;
  RateDecision decision = {};
};

class SlidingWindow {
 public:
  // Counts a request at `now_ms` (Unix milliseconds) against `limit` requests per window.
  // A clock behind the newest second seen (another replica's, or a step back) counts in
  // that newest second, so the window never moves backwards.
  // `grants`: whether the caller takes grants (sliding_window.h above).
  RateDecision admit(int64_t now_ms, int limit, bool grants = false);
  // True when nothing admitted is left in the window at `now_ms`: the state can be dropped.
  bool idleAt(int64_t now_ms) const;

 private:
  int32_t& bucket(int64_t second) {
    return counts_[static_cast<std::size_t>(((second % kRateWindowSeconds) + kRateWindowSeconds) %
                                            kRateWindowSeconds)];
  }
  void expireBefore(int64_t first_second);

  std::array<int32_t, kRateWindowSeconds> counts_{};
  bool seen_ = false;
  int64_t newest_ = 0;  // newest second seen
  int64_t head_ = 0;    // oldest second holding a count, when total_ > 0
  int64_t total_ = 0;
};

}  // namespace feedback::gateway
