// The response-count scripts (common/redis/response_counts.h) on a real Redis: settlements and
// recoveries raise counts as before erasures existed; an erasure drops the count, and no count
// read that started before it committed is recorded after it, whichever script brings it; a
// lost erasure's entry, trimmed, drops the count too and never moves `lowered` back; a read
// older than `lowered` is kept records nothing. Hidden from the unit run ("[.redis]"), run by
// tests/integration/test_resilience.py with REDIS_PORT set; without it, it fails.
#include <catch2/catch.hpp>
#include <cstdlib>

#include "common/core/ids.h"
#include "common/core/time.h"
#include "common/redis/redis_client.h"
#include "common/redis/response_counts.h"

using namespace feedback;
namespace rc = feedback::responsecount;

namespace {

int64_t nowMs() {
  return nowMicros() / 1000;
}

struct Link {
  RedisClient& redis;
  std::string uuid = newUuid();

  std::optional<RedisReply> run(std::vector<std::string> command) {
    auto reply = redis.commandSync(std::move(command));
    REQUIRE(reply);
    REQUIRE(reply->type != RedisReply::Type::kError);
    return reply;
  }
  std::string get(const std::string& key) {
    auto reply = run({"GET", key});
    return reply->type == RedisReply::Type::kString ? reply->str : "";
  }
  std::string count() { return get(rc::countKey(uuid)); }
  std::string token() { return get(rc::changesKey(uuid)); }
  std::string lowered() { return get(rc::loweredKey(uuid)); }
  int64_t pending() { return run({"ZCARD", rc::pendingKey(uuid)})->integer; }

  void begin(const std::string& id, int64_t at_ms) {
    run({"EVAL", std::string(rc::kBeginScript), "1", rc::pendingKey(uuid),
         std::to_string(rc::kTtlSeconds), std::to_string(at_ms), id});
  }
  // A settlement with a count read that started at `started_ms` (or none: -1).
  void settle(int64_t count, int64_t started_ms, const std::vector<std::string>& ids) {
    std::vector<std::string> command{"EVAL",
                                     std::string(rc::kSettleScript),
                                     "4",
                                     rc::countKey(uuid),
                                     rc::pendingKey(uuid),
                                     rc::changesKey(uuid),
                                     rc::loweredKey(uuid),
                                     std::to_string(count),
                                     std::to_string(rc::kTtlSeconds),
                                     newUuid(),
                                     std::to_string(started_ms),
                                     std::to_string(rc::settledBefore(started_ms)),
                                     std::to_string(rc::kClockSkewMarginMs),
                                     std::to_string(rc::kLoweredTtlSeconds)};
    command.insert(command.end(), ids.begin(), ids.end());
    run(std::move(command));
  }
  // A gateway's count read that started at `started_ms`.
  void recover(int64_t count, int64_t started_ms) {
    run({"EVAL", std::string(rc::kRecoverScript), "3", rc::countKey(uuid), rc::pendingKey(uuid),
         rc::loweredKey(uuid), std::to_string(count), std::to_string(rc::kTtlSeconds),
         std::to_string(started_ms), std::to_string(rc::settledBefore(started_ms)),
         std::to_string(rc::kClockSkewMarginMs), std::to_string(rc::kLoweredTtlSeconds)});
  }
  // An erasure's settlement, committed at `at_ms`.
  void removed(int64_t at_ms, const std::vector<std::string>& ids) {
    std::vector<std::string> command{"EVAL",
                                     std::string(rc::kRemovedScript),
                                     "4",
                                     rc::countKey(uuid),
                                     rc::pendingKey(uuid),
                                     rc::changesKey(uuid),
                                     rc::loweredKey(uuid),
                                     std::to_string(rc::kTtlSeconds),
                                     newUuid(),
                                     std::to_string(at_ms),
                                     std::to_string(rc::kLoweredTtlSeconds)};
    command.insert(command.end(), ids.begin(), ids.end());
    run(std::move(command));
  }
};

RedisClient& redis() {
  const char* port = std::getenv("REDIS_PORT");
  REQUIRE(port != nullptr);
  static RedisClient client("127.0.0.1", std::atoi(port));
  return client;
}

}  // namespace

TEST_CASE("count scripts: without erasures, counts are only raised", "[.redis]") {
  Link link{redis()};
  const int64_t now = nowMs();
  link.begin("s1", now);
  CHECK(link.pending() == 1);
  link.settle(5, now, {"s1"});
  CHECK(link.count() == "5");
  CHECK(link.token().rfind("5:", 0) == 0);
  CHECK(link.pending() == 0);
  link.recover(3, now);  // an older read: the count stays
  CHECK(link.count() == "5");
  link.settle(7, now + 1, {});
  CHECK(link.count() == "7");
  // A submission that began long before a read ends with it; one that began lately stays.
  link.begin("old", now - rc::kPendingMaxAgeMs - 1000);
  link.begin("new", now);
  link.recover(8, now);
  CHECK(link.count() == "8");
  CHECK(link.pending() == 1);
}

TEST_CASE("count scripts: no read that started before an erasure is recorded after it",
          "[.redis]") {
  Link link{redis()};
  const int64_t before = nowMs();
  link.settle(10, before, {});
  link.begin("rm:x", before);
  link.removed(before + 10, {"rm:x"});
  CHECK(link.count().empty());
  CHECK(link.token().rfind("erased:", 0) == 0);
  CHECK(link.pending() == 0);
  CHECK(link.lowered() == std::to_string(before + 10));
  // Reads that started before the erasure committed (or within the margin after it): neither a
  // gateway's nor a settlement's records its count, which may hold the erased response.
  link.recover(10, before);
  link.settle(10, before + 10 + rc::kClockSkewMarginMs, {});
  CHECK(link.count().empty());
  // A read that started after it is recorded, lower than the count before.
  link.recover(9, before + 10 + rc::kClockSkewMarginMs + 1);
  CHECK(link.count() == "9");
}

TEST_CASE("count scripts: a lost erasure trimmed drops the count; lowered never moves back",
          "[.redis]") {
  Link link{redis()};
  const int64_t now = nowMs();
  link.settle(20, now - 2000, {});
  // An erasure began long ago and its settlement was lost: the count, still 20, stays
  // untrusted while its entry is pending.
  link.begin("rm:lost", now - rc::kPendingMaxAgeMs - 5000);
  CHECK(link.count() == "20");
  // A read ten minutes after it began trims it and drops the count, as its settlement would
  // have; that read's own count is not recorded.
  link.recover(20, now - 3000);
  CHECK(link.pending() == 0);
  CHECK(link.count().empty());
  CHECK(link.lowered() == std::to_string(now - 3000));
  // Another erasure settles later; a read that started before it trims another lost entry and
  // leaves `lowered` where the later erasure put it.
  link.begin("rm:lost-too", now - rc::kPendingMaxAgeMs - 5000);
  link.removed(now, {});
  link.recover(19, now - 1000);
  CHECK(link.pending() == 0);
  CHECK(link.lowered() == std::to_string(now));
  // So a read between that one and the later erasure's commit is still not recorded...
  link.recover(20, now - 500);
  CHECK(link.count().empty());
  // ...and one after it is.
  link.recover(19, now + rc::kClockSkewMarginMs + 10);
  CHECK(link.count() == "19");
}

TEST_CASE("count scripts: a read older than lowered is kept records nothing", "[.redis]") {
  Link link{redis()};
  const int64_t stale = nowMs() - rc::kLoweredTtlSeconds * 1000LL;
  link.begin("s", stale - 1000);
  link.recover(4, stale);
  CHECK(link.count().empty());
  CHECK(link.pending() == 1);  // left for a fresh read to end
  link.recover(4, nowMs());
  CHECK(link.count() == "4");
  CHECK(link.pending() == 0);
}
