#include "services/gateway/ratelimit/sliding_window.h"

#include <catch2/catch.hpp>
#include <map>
#include <random>

#include "services/gateway/ratelimit/local_rate_limiter.h"

using feedback::gateway::kGrantMinLimit;
using feedback::gateway::kRateWindowSeconds;
using feedback::gateway::LocalRateLimiter;
using feedback::gateway::RateDecision;
using feedback::gateway::SlidingWindow;

namespace {

constexpr int64_t kT0 = 1'700'000'000'000;  // a whole second, in ms

// Admitted requests per second, to check windows afterwards.
struct Ledger {
  std::map<int64_t, int> admitted;
  int inWindowEndingAt(int64_t second) const {
    int total = 0;
    for (auto it = admitted.lower_bound(second - kRateWindowSeconds + 1);
         it != admitted.end() && it->first <= second; ++it) {
      total += it->second;
    }
    return total;
  }
};

}  // namespace

TEST_CASE("sliding window: the limit within one second, then refused until it frees",
          "[ratelimit]") {
  SlidingWindow window;
  for (int i = 0; i < 30; ++i) {
    RateDecision d = window.admit(kT0 + i, 30);
    REQUIRE(d.admitted);
    CHECK(d.limit == 30);
    CHECK(d.remaining == 29 - i);
  }
  RateDecision refused = window.admit(kT0 + 500, 30);
  CHECK_FALSE(refused.admitted);
  CHECK(refused.remaining == 0);
  // The first second's requests leave the window 60 s after that second began.
  CHECK(refused.retry_after_ms == 59'500);
  CHECK(refused.reset_ms == refused.retry_after_ms);
  CHECK_FALSE(window.admit(kT0 + 59'999, 30).admitted);
  RateDecision again = window.admit(kT0 + 60'000, 30);
  CHECK(again.admitted);
  CHECK(again.remaining == 29);
}

TEST_CASE("sliding window: no 60 whole seconds hold more than the limit, at window edges too",
          "[ratelimit]") {
  SlidingWindow window;
  // A full minute's worth in the last millisecond of a second...
  for (int i = 0; i < 30; ++i) REQUIRE(window.admit(kT0 + 999, 30).admitted);
  // ...is still counted at the start of every second up to 59 s later.
  for (int s = 1; s < kRateWindowSeconds; ++s) {
    CHECK_FALSE(window.admit(kT0 + s * 1000, 30).admitted);
  }
  CHECK(window.admit(kT0 + kRateWindowSeconds * 1000, 30).admitted);
}

TEST_CASE("sliding window: random traffic never exceeds the limit and is refused only when full",
          "[ratelimit]") {
  std::mt19937_64 random(7);
  for (int round = 0; round < 20; ++round) {
    const int limit = 1 + static_cast<int>(random() % 40);
    SlidingWindow window;
    Ledger ledger;
    int64_t now = kT0 + static_cast<int64_t>(random() % 1000);
    for (int i = 0; i < 3000; ++i) {
      now += static_cast<int64_t>(random() % 400);  // bursts and pauses, 0-400 ms apart
      RateDecision d = window.admit(now, limit);
      const int64_t second = now / 1000;
      if (d.admitted) {
        ++ledger.admitted[second];
        REQUIRE(ledger.inWindowEndingAt(second) <= limit);
      } else {
        // Refused only with the window full, and told when it will not be.
        REQUIRE(ledger.inWindowEndingAt(second) == limit);
        REQUIRE(d.retry_after_ms >= 1);
        const int64_t free_at = now + d.retry_after_ms;
        REQUIRE(ledger.inWindowEndingAt(free_at / 1000) < limit);
        REQUIRE(ledger.inWindowEndingAt((free_at - 1) / 1000) == limit);
      }
      REQUIRE(d.remaining == limit - ledger.inWindowEndingAt(second));
    }
  }
}

TEST_CASE("sliding window: grants go to busy keys of high limits and count as admitted",
          "[ratelimit]") {
  SlidingWindow window;
  // Low limits, or a key not yet busy in this second: nothing granted.
  CHECK(window.admit(kT0, kGrantMinLimit - 1, true).granted == 0);
  SlidingWindow busy;
  CHECK(busy.admit(kT0, 100000, true).granted == 0);  // the second's first request
  CHECK(busy.admit(kT0 + 1, 100000, true).granted == 1);
  RateDecision third = busy.admit(kT0 + 2, 100000, true);
  CHECK(third.granted == 3);  // as many as the second has seen
  CHECK(third.remaining == 100000 - 1 - 2 - 4);
  CHECK(third.second_left_ms == 998);
  // Without grants asked for, none.
  CHECK(busy.admit(kT0 + 3, 100000, false).granted == 0);
  // Near the limit, at most a sixteenth of what is left.
  SlidingWindow near;
  for (int i = 0; i < 5; ++i) near.admit(kT0, kGrantMinLimit, false);
  RateDecision d = near.admit(kT0 + 10, kGrantMinLimit, true);
  CHECK(d.granted == 5);
  std::mt19937_64 random(3);
  for (int round = 0; round < 10; ++round) {
    const int limit = kGrantMinLimit + static_cast<int>(random() % 2000);
    SlidingWindow w;
    Ledger ledger;
    int64_t now = kT0;
    for (int i = 0; i < 20000; ++i) {
      now += static_cast<int64_t>(random() % 12);
      RateDecision r = w.admit(now, limit, true);
      if (r.admitted) ledger.admitted[now / 1000] += static_cast<int>(1 + r.granted);
      REQUIRE(ledger.inWindowEndingAt(now / 1000) <= limit);
      if (!r.admitted) REQUIRE(ledger.inWindowEndingAt(now / 1000) == limit);
    }
  }
}

TEST_CASE("sliding window: a clock behind the newest second seen counts in that second",
          "[ratelimit]") {
  SlidingWindow window;
  // Replica A's clock; replica B's runs 5 s behind it.
  for (int i = 0; i < 10; ++i) REQUIRE(window.admit(kT0 + 70'000, 10).admitted);
  // B, at its 65 s, cannot reopen seconds A has already filled...
  RateDecision behind = window.admit(kT0 + 65'000, 10);
  CHECK_FALSE(behind.admitted);
  CHECK(behind.retry_after_ms == 60'000);
  // ...and once A's window frees, B's requests land in A's newest second.
  CHECK(window.admit(kT0 + 130'000, 10).admitted);
  CHECK(window.admit(kT0 + 125'000, 10).admitted);
  int admitted = 2;
  while (window.admit(kT0 + 125'500, 10).admitted) ++admitted;
  CHECK(admitted == 10);
}

TEST_CASE("sliding window: buckets expire; a long pause starts afresh", "[ratelimit]") {
  SlidingWindow window;
  for (int s = 0; s < 5; ++s) REQUIRE(window.admit(kT0 + s * 1000, 5).admitted);
  CHECK_FALSE(window.admit(kT0 + 5'000, 5).admitted);
  // One bucket leaves each second from 60 s on.
  CHECK(window.admit(kT0 + 60'000, 5).admitted);
  CHECK_FALSE(window.admit(kT0 + 60'001, 5).admitted);
  CHECK(window.admit(kT0 + 61'000, 5).admitted);
  CHECK_FALSE(window.idleAt(kT0 + 61'000));
  CHECK(window.idleAt(kT0 + 3600'000));
  RateDecision fresh = window.admit(kT0 + 3600'000, 5);
  CHECK(fresh.admitted);
  CHECK(fresh.remaining == 4);
  CHECK(fresh.reset_ms == 60'000);
}

TEST_CASE("sliding window: a lowered limit waits for enough buckets to leave", "[ratelimit]") {
  SlidingWindow window;
  for (int s = 0; s < 10; ++s) {
    for (int i = 0; i < 10; ++i) REQUIRE(window.admit(kT0 + s * 1000, 120).admitted);
  }
  // 100 counted, the limit now 30: the 71 oldest must leave, i.e. the buckets of s = 0..7.
  RateDecision d = window.admit(kT0 + 10'000, 30);
  CHECK_FALSE(d.admitted);
  CHECK(d.remaining == 0);
  CHECK(d.retry_after_ms == (7 + 60 - 10) * 1000);
  RateDecision zero = window.admit(kT0 + 10'000, 0);
  CHECK_FALSE(zero.admitted);
  CHECK(zero.retry_after_ms >= 1);
}

TEST_CASE("local limiter: one window per subject, bounded by dropping idle ones", "[ratelimit]") {
  LocalRateLimiter local(16);  // one window per shard
  CHECK(local.admit("a", 1, kT0).admitted);
  CHECK_FALSE(local.admit("a", 1, kT0 + 10).admitted);
  CHECK(local.admit("b", 1, kT0).admitted);
  for (int i = 0; i < 200; ++i) local.admit("s" + std::to_string(i), 1, kT0);
  CHECK(local.subjects() <= 16);
  // A subject that finds its shard full of busy windows is admitted uncounted (fail open).
  // Once the others are idle they make room.
  for (int i = 0; i < 200; ++i) local.admit("t" + std::to_string(i), 1, kT0 + 120'000);
  CHECK(local.subjects() <= 16);
  CHECK(local.subjects() > 0);
}
