#include "services/gateway/routes/response_page_cache.h"

#include <catch2/catch.hpp>

using feedback::RedisReply;
using feedback::gateway::CachedPage;
using feedback::gateway::completedPagesValidity;
using feedback::gateway::ResponsePageCache;
using namespace std::chrono_literals;

namespace {

std::shared_ptr<const CachedPage> page(std::string results, int64_t count = 1) {
  return std::make_shared<const CachedPage>(CachedPage{count, std::move(results)});
}

// A clock the test moves by hand.
struct ManualClock {
  std::chrono::steady_clock::time_point now{};
  ResponsePageCache::Clock clock() {
    return [this] { return now; };
  }
};

RedisReply integer(long long n) {
  RedisReply r{RedisReply::Type::kInteger};
  r.integer = n;
  return r;
}

RedisReply text(std::string s) {
  RedisReply r{RedisReply::Type::kString};
  r.str = std::move(s);
  return r;
}

}  // namespace

TEST_CASE("page cache: served only under the validity it was kept with", "[cache]") {
  ResponsePageCache cache(1 << 20, 300s);
  cache.store("k1", "t1@1", page("[1]", 7));
  auto found = cache.find("k1", "t1@1");
  REQUIRE(found);
  CHECK(found->results_json == "[1]");
  CHECK(found->count == 7);
  CHECK_FALSE(cache.find("k1", "t2@1"));
  CHECK_FALSE(cache.find("k1", "t1@2"));
  CHECK_FALSE(cache.find("k2", "t1@1"));
}

TEST_CASE("page cache: a newer page under a new validity replaces the old one", "[cache]") {
  ResponsePageCache cache(1 << 20, 300s);
  cache.store("k", "t1@1", page("[old]"));
  cache.store("k", "t2@1", page("[new]"));
  CHECK_FALSE(cache.find("k", "t1@1"));
  REQUIRE(cache.find("k", "t2@1"));
  CHECK(cache.find("k", "t2@1")->results_json == "[new]");
  CHECK(cache.entries() == 1);
}

TEST_CASE("page cache: pages expire after their maximum age", "[cache]") {
  ManualClock clock;
  ResponsePageCache cache(1 << 20, 60s, clock.clock());
  cache.store("k", "t@1", page("[1]"));
  clock.now += 59s;
  CHECK(cache.find("k", "t@1"));
  clock.now += 1s;
  CHECK_FALSE(cache.find("k", "t@1"));
  CHECK(cache.entries() == 0);
  CHECK(cache.bytes() == 0);
}

TEST_CASE("page cache: stays within its bytes, evicting the oldest stores first", "[cache]") {
  const std::string results(1000, 'x');
  ResponsePageCache cache(5000, 300s);
  for (int i = 0; i < 10; ++i) cache.store("k" + std::to_string(i), "t@1", page(results));
  CHECK(cache.bytes() <= 5000);
  CHECK(cache.entries() >= 3);
  CHECK(cache.find("k9", "t@1"));
  CHECK_FALSE(cache.find("k0", "t@1"));
  // A page larger than the whole cache is not kept, and keeps what is there.
  cache.store("huge", "t@1", page(std::string(6000, 'y')));
  CHECK_FALSE(cache.find("huge", "t@1"));
  CHECK(cache.find("k9", "t@1"));
}

TEST_CASE("page cache: replacing one key again and again keeps its bookkeeping bounded",
          "[cache]") {
  ResponsePageCache cache(1 << 20, 300s);
  cache.store("other", "t@1", page("[o]"));
  for (int i = 0; i < 10000; ++i) cache.store("hot", "t" + std::to_string(i) + "@1", page("[h]"));
  CHECK(cache.entries() == 2);
  CHECK(cache.find("other", "t@1"));
  CHECK(cache.find("hot", "t9999@1"));
  // Eviction after many replacements still removes whole entries and frees their bytes.
  ResponsePageCache small(3 * 1300, 300s);
  for (int i = 0; i < 1000; ++i) {
    small.store("k" + std::to_string(i % 5), "t@1", page(std::string(1000, 'z')));
  }
  CHECK(small.entries() <= 3);
  CHECK(small.bytes() <= 3 * 1300);
}

TEST_CASE("page cache: a cache of zero bytes keeps nothing", "[cache]") {
  ResponsePageCache cache(0, 300s);
  CHECK_FALSE(cache.enabled());
  cache.store("k", "t@1", page("[1]"));
  CHECK_FALSE(cache.find("k", "t@1"));
}

TEST_CASE("page validity: only with nothing pending and a token, tied to the connection",
          "[cache]") {
  CHECK(completedPagesValidity(integer(0), text("abc"), 3) == "abc@3");
  CHECK(completedPagesValidity(integer(0), text("abc"), 4) != "abc@3");
  // A submission pending: its commit may already be visible, its settlement not yet.
  CHECK_FALSE(completedPagesValidity(integer(1), text("abc"), 3));
  // No token yet, or Redis did not answer or failed.
  CHECK_FALSE(completedPagesValidity(integer(0), RedisReply{RedisReply::Type::kNil}, 3));
  CHECK_FALSE(completedPagesValidity(std::nullopt, std::nullopt, 3));
  CHECK_FALSE(completedPagesValidity(RedisReply{RedisReply::Type::kError}, text("abc"), 3));
  CHECK_FALSE(completedPagesValidity(integer(0), RedisReply{RedisReply::Type::kError}, 3));
}
