#include "services/gateway/ratelimit/sliding_window.h"

#include <algorithm>

namespace feedback::gateway {
namespace {

int64_t secondOf(int64_t ms) {
  return ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
}

}  // namespace

void SlidingWindow::expireBefore(int64_t first_second) {
  if (total_ == 0) return;
  if (newest_ < first_second) {
    counts_.fill(0);
    total_ = 0;
    return;
  }
  if (head_ >= first_second) return;
  while (head_ < first_second) {
    total_ -= bucket(head_);
    bucket(head_) = 0;
    ++head_;
  }
  if (total_ > 0) {
    while (bucket(head_) == 0) ++head_;
  }
}

RateDecision SlidingWindow::admit(int64_t now_ms, int limit, bool grants) {
  int64_t now = secondOf(now_ms);
  if (seen_ && now < newest_) {
    now = newest_;
    now_ms = std::max(now_ms, now * 1000);
  }
  const int64_t first = now - kRateWindowSeconds + 1;
  // Like the script, the state is written only when it changes: a refusal leaves it as is.
  bool changed = total_ > 0 && (newest_ < first || head_ < first);
  expireBefore(first);

  RateDecision decision;
  decision.limit = limit;
  decision.admitted = total_ < limit;
  if (decision.admitted) {
    int32_t& current = bucket(now);
    if (grants && limit >= kGrantMinLimit) {
      decision.granted = std::clamp<int64_t>(
          std::min<int64_t>(current, (limit - total_ - 1) / kGrantShare), 0, kGrantMax);
    }
    if (total_ == 0) head_ = now;
    current += static_cast<int32_t>(1 + decision.granted);
    total_ += 1 + decision.granted;
    changed = true;
  }
  decision.second_left_ms = (now + 1) * 1000 - now_ms;
  if (changed) {
    seen_ = total_ > 0;
    newest_ = now;
  }
  decision.remaining = static_cast<int>(std::max<int64_t>(0, limit - total_));
  if (total_ > 0) decision.reset_ms = (head_ + kRateWindowSeconds) * 1000 - now_ms;
  if (!decision.admitted) {
    if (limit <= 0 || total_ == 0) {
      decision.retry_after_ms = kRateWindowSeconds * 1000;
    } else {
      // The oldest buckets that must leave before the count is below the limit again.
      int64_t need = total_ - limit + 1, dropped = 0, second = head_;
      while (dropped < need) dropped += bucket(second++);
      decision.retry_after_ms = (second - 1 + kRateWindowSeconds) * 1000 - now_ms;
    }
    decision.reset_ms = decision.retry_after_ms;
  }
  return decision;
}

bool SlidingWindow::idleAt(int64_t now_ms) const {
  return total_ == 0 || newest_ < secondOf(now_ms) - kRateWindowSeconds + 1;
}

}  // namespace feedback::gateway
