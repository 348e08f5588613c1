// The Redis script of the shared rate window against SlidingWindow, its reference: the same
// requests at the same times must get the same decisions. Needs a Redis server, so it is
// hidden from the unit run ("[.redis]") and run by the integration tests with REDIS_PORT set
// (tests/integration/test_rate_limits.py); without REDIS_PORT it fails rather than pass empty.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <random>

#include "common/redis/redis_client.h"
#include "services/gateway/ratelimit/rate_window_script.h"
#include "services/gateway/ratelimit/sliding_window.h"

using namespace feedback;
using namespace feedback::gateway;

namespace {

struct ScriptWindow {
  RedisClient& redis;
  std::string key;

  RateDecision admit(int64_t now_ms, int limit, bool grants) {
    auto reply =
        redis.commandSync({"EVAL", std::string(ratewindow::kScript), "1", key,
                           std::to_string(limit), std::to_string(kRateWindowSeconds),
                           std::to_string(now_ms), grants ? std::to_string(kGrantMinLimit) : "",
                           std::to_string(kGrantShare), std::to_string(kGrantMax)});
    REQUIRE(reply);
    REQUIRE(reply->type == RedisReply::Type::kArray);
    REQUIRE(reply->elements.size() == 8);
    const auto& e = reply->elements;
    CHECK(e[5].type == RedisReply::Type::kNil);  // no record without KEYS[2]
    return {e[0].integer == 1,
            static_cast<int>(e[1].integer),
            static_cast<int>(e[2].integer),
            e[3].integer,
            e[4].integer,
            e[6].integer,
            e[7].integer};
  }
};

void requireSame(const RateDecision& script, const RateDecision& reference) {
  REQUIRE(script.admitted == reference.admitted);
  REQUIRE(script.limit == reference.limit);
  REQUIRE(script.remaining == reference.remaining);
  REQUIRE(script.reset_ms == reference.reset_ms);
  REQUIRE(script.retry_after_ms == reference.retry_after_ms);
  REQUIRE(script.granted == reference.granted);
  REQUIRE(script.second_left_ms == reference.second_left_ms);
}

}  // namespace

TEST_CASE("rate window script: Redis decides as SlidingWindow does", "[.redis]") {
  const char* port = std::getenv("REDIS_PORT");
  REQUIRE(port != nullptr);
  RedisClient redis("127.0.0.1", std::atoi(port));
  std::mt19937_64 random(11);
  for (int round = 0; round < 12; ++round) {
    ScriptWindow script{redis, ratewindow::redisKey("script-test-" + std::to_string(round))};
    redis.commandSync({"DEL", script.key});
    SlidingWindow reference;
    // Half the rounds with limits high enough for grants.
    const bool high = round % 2 == 1;
    const bool grants = round % 4 != 3;
    auto pick = [&] {
      return high ? kGrantMinLimit + static_cast<int>(random() % 400)
                  : static_cast<int>(random() % 25);
    };
    int limit = std::max(1, pick());
    int64_t now = 1'700'000'000'000 + static_cast<int64_t>(random() % 1000);
    for (int i = 0; i < (high ? 1500 : 400); ++i) {
      // Mostly forward, sometimes a clock behind, sometimes a long pause or a new limit.
      switch (random() % 20) {
        case 0:
          now -= static_cast<int64_t>(random() % 5000);
          break;
        case 1:
          now += 30'000 + static_cast<int64_t>(random() % 90'000);
          break;
        case 2:
          limit = pick();
          break;
        default:
          now += static_cast<int64_t>(random() % (high ? 40 : 700));
      }
      requireSame(script.admit(now, limit, grants), reference.admit(now, limit, grants));
    }
    // Nothing outlives the window: at most its buckets and three fields, and a TTL.
    auto fields = redis.commandSync({"HLEN", script.key});
    REQUIRE(fields);
    CHECK(fields->integer <= kRateWindowSeconds + 3);
    auto ttl = redis.commandSync({"PTTL", script.key});
    REQUIRE(ttl);
    CHECK(ttl->integer <= (kRateWindowSeconds + 1) * 1000);
    redis.commandSync({"DEL", script.key});
  }
}

TEST_CASE("rate window script: a key's limit comes from its cached record", "[.redis]") {
  const char* port = std::getenv("REDIS_PORT");
  REQUIRE(port != nullptr);
  RedisClient redis("127.0.0.1", std::atoi(port));
  const std::string record = "fb:key:{script-test-key}";
  const std::string window = ratewindow::redisKey("script-test-key");
  redis.commandSync({"DEL", record, window});
  auto admit = [&] {
    return redis.commandSync({"EVAL", std::string(ratewindow::kScript), "2", window, record, "",
                              std::to_string(kRateWindowSeconds), "", "", "", ""});
  };
  // Not cached: uncounted, no record.
  auto uncached = admit();
  REQUIRE(uncached);
  REQUIRE(uncached->elements.size() == 2);
  CHECK(uncached->elements[0].integer == -1);
  CHECK(uncached->elements[1].type == RedisReply::Type::kNil);
  // A tombstone: uncounted, and the tombstone comes back for the key's lookup.
  redis.commandSync({"SET", record, "revoked"});
  auto tombstone = admit();
  REQUIRE(tombstone->elements.size() == 2);
  CHECK(tombstone->elements[1].str == "revoked");
  // A record: counted against its limit, and the record comes back.
  const std::string value("v2:2:\x0a\x03", 7);
  redis.commandSync({"SET", record, value});
  auto first = admit();
  REQUIRE(first->elements.size() == 8);
  CHECK(first->elements[0].integer == 1);
  CHECK(first->elements[5].str == value);
  CHECK(admit()->elements[0].integer == 1);
  auto refused = admit();
  CHECK(refused->elements[0].integer == 0);
  CHECK(refused->elements[1].integer == 2);
  CHECK(refused->elements[2].integer == 0);
  CHECK(refused->elements[4].integer >= 1);
  redis.commandSync({"DEL", record, window});
}
