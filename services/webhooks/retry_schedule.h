#pragma once
// When a failed delivery is tried again (docs/api.md "Events and webhooks"): 5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h, 10 h after the attempts that failed, each delay multiplied by
// WEBHOOK_RETRY_SCALE, so eight attempts in all over about 27.6 hours.

#include <chrono>
#include <optional>

#include "common/net/http_client.h"

namespace feedback::webhooks {

using Millis = std::chrono::milliseconds;

// What to do after an attempt.
struct AttemptOutcome {
  bool succeeded = false;
  // The receiver answered 410 Gone: the webhook is disabled and nothing more is sent to it.
  bool disable = false;
  // When to try again; nullopt when no attempt follows (success, disabled, or given up).
  std::optional<Millis> retry_in;
};

class RetrySchedule {
 public:
  static constexpr int kAttempts = 8;
  explicit RetrySchedule(double scale) : scale_(scale) {}

  // The delay after attempt number `attempt` (1-based) failed; nullopt after the last.
  std::optional<Millis> delayAfter(int attempt) const;

  // Success is a 2xx answer. A 3xx is a failure (redirects are not followed). A 429 or 503
  // with Retry-After waits at least that long, at most the schedule's longest step.
  AttemptOutcome outcome(int attempt, const net::HttpResult& result) const;

 private:
  double scale_;
};

}  // namespace feedback::webhooks
