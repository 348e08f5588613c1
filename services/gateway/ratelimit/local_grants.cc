#include "services/gateway/ratelimit/local_grants.h"

#include <algorithm>
#include <functional>

namespace feedback::gateway {
namespace {

int64_t msBetween(LocalGrants::Clock::time_point from, LocalGrants::Clock::time_point to) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

}  // namespace

LocalGrants::Shard& LocalGrants::shardOf(std::string_view subject) {
  return shards_[std::hash<std::string_view>{}(subject) % kShards];
}

std::optional<RateDecision> LocalGrants::take(std::string_view subject, Clock::time_point now) {
  Shard& shard = shardOf(subject);
  std::lock_guard lock(shard.mutex);
  if (shard.entries.empty()) return std::nullopt;
  auto it = shard.entries.find(std::string(subject));
  if (it == shard.entries.end()) return std::nullopt;
  Entry& entry = it->second;
  if (now >= entry.until) {
    shard.entries.erase(it);
    return std::nullopt;
  }
  const int64_t elapsed = msBetween(entry.made, now);
  RateDecision decision = entry.decision;
  decision.granted = 0;
  decision.reset_ms = std::max<int64_t>(0, decision.reset_ms - elapsed);
  if (!decision.admitted) {
    decision.retry_after_ms = std::max<int64_t>(1, decision.retry_after_ms - elapsed);
    decision.reset_ms = decision.retry_after_ms;
    return decision;
  }
  --entry.tokens;
  // What the window had left, plus the grants not spent yet.
  decision.remaining = static_cast<int>(decision.remaining + entry.tokens);
  if (entry.tokens == 0) shard.entries.erase(it);
  return decision;
}

void LocalGrants::keep(std::string_view subject, const RateDecision& decision,
                       Clock::time_point sent, Clock::time_point now) {
  Entry entry{now, now, decision, 0};
  if (decision.admitted) {
    if (decision.granted <= 0) return;
    entry.tokens = decision.granted;
    entry.until = sent + std::chrono::milliseconds(decision.second_left_ms) - kMargin;
  } else {
    // From `sent` too: the refusal ends no later than the moment the window frees.
    entry.until = sent + std::min(std::chrono::milliseconds(decision.retry_after_ms), kMaxRefusal);
  }
  if (entry.until <= now) return;
  Shard& shard = shardOf(subject);
  std::lock_guard lock(shard.mutex);
  if (shard.entries.size() >= max_per_shard_) {
    std::erase_if(shard.entries, [now](const auto& e) { return now >= e.second.until; });
    if (shard.entries.size() >= max_per_shard_) return;
  }
  auto [it, added] = shard.entries.try_emplace(std::string(subject), entry);
  if (added) return;
  Entry& held = it->second;
  // Grants of the same second add up; anything else replaces what was held.
  if (held.decision.admitted && decision.admitted && now < held.until &&
      std::chrono::abs(held.until - entry.until) < std::chrono::milliseconds(500)) {
    held.tokens += entry.tokens;
    held.until = std::min(held.until, entry.until);
    held.decision.remaining = std::min(held.decision.remaining, decision.remaining);
  } else {
    held = entry;
  }
}

}  // namespace feedback::gateway
