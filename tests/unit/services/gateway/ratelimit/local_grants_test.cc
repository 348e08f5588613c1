#include "services/gateway/ratelimit/local_grants.h"

#include <catch2/catch.hpp>

using namespace feedback::gateway;
using namespace std::chrono_literals;

namespace {

RateDecision granted(int64_t count, int64_t second_left_ms, int remaining = 500) {
  RateDecision d;
  d.admitted = true;
  d.limit = 2000;
  d.remaining = remaining;
  d.reset_ms = 60'000;
  d.granted = count;
  d.second_left_ms = second_left_ms;
  return d;
}

}  // namespace

TEST_CASE("local grants: spent one by one until gone or their second ends", "[ratelimit]") {
  LocalGrants grants;
  const auto t0 = LocalGrants::Clock::now();
  CHECK_FALSE(grants.take("k", t0));
  grants.keep("k", granted(2, 500), t0, t0 + 1ms);
  auto first = grants.take("k", t0 + 2ms);
  REQUIRE(first);
  CHECK(first->admitted);
  CHECK(first->remaining == 501);  // what the window had left, plus one grant unspent
  CHECK(first->granted == 0);
  CHECK(grants.take("k", t0 + 3ms));
  CHECK_FALSE(grants.take("k", t0 + 4ms));  // spent
  // A grant ends with its second as seen from when the count was sent, less a margin.
  grants.keep("k", granted(5, 100), t0, t0 + 10ms);
  CHECK(grants.take("k", t0 + 50ms));
  CHECK_FALSE(grants.take("k", t0 + 100ms - LocalGrants::kMargin));
  CHECK_FALSE(grants.take("other", t0 + 50ms));
  // Grants of one second add up.
  grants.keep("m", granted(1, 400), t0, t0);
  grants.keep("m", granted(2, 390), t0 + 10ms, t0 + 10ms);
  int spent = 0;
  while (grants.take("m", t0 + 20ms)) ++spent;
  CHECK(spent == 3);
  // Nothing granted, nothing kept.
  grants.keep("n", granted(0, 900), t0, t0);
  CHECK_FALSE(grants.take("n", t0 + 1ms));
}

TEST_CASE("local grants: a refusal is repeated until admission could succeed, a second at most",
          "[ratelimit]") {
  LocalGrants grants;
  const auto t0 = LocalGrants::Clock::now();
  RateDecision refused;
  refused.admitted = false;
  refused.limit = 30;
  refused.retry_after_ms = 400;
  refused.reset_ms = 400;
  grants.keep("k", refused, t0, t0);
  auto again = grants.take("k", t0 + 100ms);
  REQUIRE(again);
  CHECK_FALSE(again->admitted);
  CHECK(again->retry_after_ms == 300);
  CHECK_FALSE(grants.take("k", t0 + 400ms));  // the window may admit again: ask Redis
  refused.retry_after_ms = 40'000;
  grants.keep("k", refused, t0, t0);
  CHECK(grants.take("k", t0 + 900ms));
  CHECK_FALSE(grants.take("k", t0 + 1000ms));  // a raised rate applies within a second
}
