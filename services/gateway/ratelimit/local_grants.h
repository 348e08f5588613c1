#pragma once
// Decisions a replica makes without asking Redis, from what the shared window told it:
// requests spent from a grant (sliding_window.h: reserved in the window when granted, valid
// until their second ends), and refusals repeated until a request could be admitted again,
// for at most a second so that a raised rate applies within one. Both keep every rule of the
// shared window: a grant only spends what is already counted, and a refusal only refuses.

#include <array>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "services/gateway/ratelimit/sliding_window.h"

namespace feedback::gateway {

class LocalGrants {
 public:
  using Clock = std::chrono::steady_clock;
  // How much sooner than its second's end a grant stops being spent.
  static constexpr std::chrono::milliseconds kMargin{20};
  static constexpr std::chrono::milliseconds kMaxRefusal{1000};

  explicit LocalGrants(std::size_t max_subjects = 100000)
      : max_per_shard_(std::max<std::size_t>(1, max_subjects / kShards)) {}

  // A decision for `subject` now, when one can be made here.
  std::optional<RateDecision> take(std::string_view subject, Clock::time_point now);
  // What a counted decision leaves here: its grant, valid until its second ends, or its
  // refusal, until the window frees; both as seen from `sent` (when the count was sent, so
  // never later than Redis's own moment).
  void keep(std::string_view subject, const RateDecision& decision, Clock::time_point sent,
            Clock::time_point now);

 private:
  static constexpr std::size_t kShards = 16;
  struct Entry {
    Clock::time_point made;
    Clock::time_point until;
    RateDecision decision;
    int64_t tokens = 0;  // grants left; 0 for a refusal
  };
  struct Shard {
    std::mutex mutex;
    std::unordered_map<std::string, Entry> entries;
  };
  Shard& shardOf(std::string_view subject);

  const std::size_t max_per_shard_;
  std::array<Shard, kShards> shards_;
};

}  // namespace feedback::gateway
