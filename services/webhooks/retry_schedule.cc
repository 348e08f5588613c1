#include "services/webhooks/retry_schedule.h"

#include <algorithm>
#include <array>

namespace feedback::webhooks {
namespace {

using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::seconds;

constexpr std::array<Millis, RetrySchedule::kAttempts - 1> kDelays = {
    seconds(5), minutes(5), minutes(30), hours(2), hours(5), hours(10), hours(10)};

}  // namespace

std::optional<Millis> RetrySchedule::delayAfter(int attempt) const {
  if (attempt < 1 || attempt >= kAttempts) return std::nullopt;
  double scaled = static_cast<double>(kDelays[attempt - 1].count()) * scale_;
  return Millis(static_cast<int64_t>(scaled));
}

AttemptOutcome RetrySchedule::outcome(int attempt, const net::HttpResult& result) const {
  AttemptOutcome out;
  if (result.status >= 200 && result.status < 300) {
    out.succeeded = true;
    return out;
  }
  if (result.status == 410) {
    out.disable = true;
    return out;
  }
  out.retry_in = delayAfter(attempt);
  bool asks_to_wait = result.status == 429 || result.status == 503;
  if (out.retry_in && asks_to_wait && result.retry_after) {
    Millis asked = std::min<Millis>(*result.retry_after, kDelays.back());
    out.retry_in = std::max(*out.retry_in, asked);
  }
  return out;
}

}  // namespace feedback::webhooks
