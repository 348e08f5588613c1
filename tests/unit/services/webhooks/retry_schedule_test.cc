#include "services/webhooks/retry_schedule.h"

#include <catch2/catch.hpp>

using feedback::net::HttpResult;
using feedback::webhooks::Millis;
using feedback::webhooks::RetrySchedule;
using namespace std::chrono_literals;

namespace {

HttpResult answered(int status, std::optional<std::chrono::seconds> retry_after = {}) {
  HttpResult r;
  r.status = status;
  r.retry_after = retry_after;
  return r;
}

}  // namespace

TEST_CASE("retry schedule: the contract's delays, then nothing", "[webhooks]") {
  RetrySchedule schedule(1.0);
  std::vector<Millis> expected = {5s, 5min, 30min, 2h, 5h, 10h, 10h};
  for (int attempt = 1; attempt <= 7; ++attempt) {
    INFO(attempt);
    REQUIRE(schedule.delayAfter(attempt));
    CHECK(*schedule.delayAfter(attempt) == expected[attempt - 1]);
  }
  CHECK_FALSE(schedule.delayAfter(8));
  CHECK(RetrySchedule::kAttempts == 8);
}

TEST_CASE("retry schedule: WEBHOOK_RETRY_SCALE multiplies every delay", "[webhooks]") {
  RetrySchedule schedule(0.01);
  CHECK(*schedule.delayAfter(1) == 50ms);
  CHECK(*schedule.delayAfter(2) == 3s);
  CHECK(*schedule.delayAfter(7) == 360s);
  CHECK(*RetrySchedule(0.0).delayAfter(1) == 0ms);
}

TEST_CASE("retry schedule: outcomes of answers", "[webhooks]") {
  RetrySchedule schedule(1.0);
  auto ok = schedule.outcome(1, answered(204));
  CHECK(ok.succeeded);
  CHECK_FALSE(ok.retry_in);
  auto gone = schedule.outcome(1, answered(410));
  CHECK(gone.disable);
  CHECK_FALSE(gone.retry_in);
  // A redirect is not followed: it fails like any other answer.
  auto moved = schedule.outcome(1, answered(301));
  CHECK_FALSE(moved.succeeded);
  CHECK(*moved.retry_in == 5s);
  HttpResult timeout;
  timeout.error = "timeout";
  CHECK(*schedule.outcome(2, timeout).retry_in == 5min);
  CHECK_FALSE(schedule.outcome(8, answered(500)).retry_in);
}

TEST_CASE("retry schedule: Retry-After of a 429 or 503 waits at least that long", "[webhooks]") {
  RetrySchedule scaled(0.01);
  CHECK(*scaled.outcome(1, answered(429, 2s)).retry_in == 2s);
  CHECK(*scaled.outcome(1, answered(503, 3s)).retry_in == 3s);
  // Only 429 and 503 ask to wait; and the schedule's own delay wins when longer.
  CHECK(*scaled.outcome(1, answered(500, 3s)).retry_in == 50ms);
  CHECK(*RetrySchedule(1.0).outcome(1, answered(429, 1s)).retry_in == 5s);
  // At most the schedule's longest step.
  CHECK(*scaled.outcome(1, answered(429, std::chrono::seconds(86400 * 30))).retry_in == 10h);
  // After the last attempt, no Retry-After brings another.
  CHECK_FALSE(scaled.outcome(8, answered(429, 2s)).retry_in);
}
