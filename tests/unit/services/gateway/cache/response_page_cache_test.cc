#include "services/gateway/cache/response_page_cache.h"

#include <catch2/catch.hpp>

using feedback::RedisReply;
using feedback::gateway::CachedPage;
using feedback::gateway::completedPagesValidity;
using feedback::gateway::pageKey;
using feedback::gateway::PageKeyParts;
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
  cache.store("k1", "t1@1", cache.now(), page("[1]", 7));
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
  cache.store("k", "t1@1", cache.now(), page("[old]"));
  cache.store("k", "t2@1", cache.now(), page("[new]"));
  CHECK_FALSE(cache.find("k", "t1@1"));
  REQUIRE(cache.find("k", "t2@1"));
  CHECK(cache.find("k", "t2@1")->results_json == "[new]");
  CHECK(cache.entries() == 1);
}

TEST_CASE("page cache: pages expire their maximum age after the read that made them valid",
          "[cache]") {
  ManualClock clock;
  ResponsePageCache cache(1 << 20, 60s, clock.clock());
  cache.store("k", "t@1", clock.now, page("[1]"));
  clock.now += 59s;
  CHECK(cache.find("k", "t@1"));
  clock.now += 1s;
  CHECK_FALSE(cache.find("k", "t@1"));
  CHECK(cache.entries() == 0);
  CHECK(cache.bytes() == 0);
  // A page whose backend call took long ages from the read, not from when it arrived.
  const auto read_at = clock.now;
  clock.now += 50s;
  cache.store("slow", "t@1", read_at, page("[2]"));
  clock.now += 10s;
  CHECK_FALSE(cache.find("slow", "t@1"));
  cache.store("late", "t@1", clock.now - 60s, page("[3]"));
  CHECK_FALSE(cache.find("late", "t@1"));
}

TEST_CASE("page cache: stays within its bytes, evicting the oldest stores first", "[cache]") {
  const std::string results(1000, 'x');
  ResponsePageCache cache(5000, 300s);
  for (int i = 0; i < 10; ++i)
    cache.store("k" + std::to_string(i), "t@1", cache.now(), page(results));
  CHECK(cache.bytes() <= 5000);
  CHECK(cache.entries() >= 3);
  CHECK(cache.find("k9", "t@1"));
  CHECK_FALSE(cache.find("k0", "t@1"));
  // A page larger than the whole cache is not kept, and keeps what is there.
  cache.store("huge", "t@1", cache.now(), page(std::string(6000, 'y')));
  CHECK_FALSE(cache.find("huge", "t@1"));
  CHECK(cache.find("k9", "t@1"));
}

TEST_CASE("page cache: replacing one key again and again keeps its bookkeeping bounded",
          "[cache]") {
  ResponsePageCache cache(1 << 20, 300s);
  cache.store("other", "t@1", cache.now(), page("[o]"));
  for (int i = 0; i < 10000; ++i)
    cache.store("hot", "t" + std::to_string(i) + "@1", cache.now(), page("[h]"));
  CHECK(cache.entries() == 2);
  CHECK(cache.positions() <= 2 * 2 + 64 + 1);
  CHECK(cache.find("other", "t@1"));
  CHECK(cache.find("hot", "t9999@1"));
  // Eviction after many replacements still removes whole entries and frees their bytes.
  ResponsePageCache small(3 * 1300, 300s);
  for (int i = 0; i < 1000; ++i) {
    small.store("k" + std::to_string(i % 5), "t@1", small.now(), page(std::string(1000, 'z')));
  }
  CHECK(small.entries() == 3);
  CHECK(small.bytes() <= 3 * 1300);
  CHECK(small.positions() <= 2 * 3 + 64 + 1);
}

TEST_CASE("page cache: a cache of zero bytes keeps nothing", "[cache]") {
  ResponsePageCache cache(0, 300s);
  CHECK_FALSE(cache.enabled());
  cache.store("k", "t@1", cache.now(), page("[1]"));
  CHECK_FALSE(cache.find("k", "t@1"));
}

TEST_CASE("page validity: nothing pending and a token naming the count read, per connection",
          "[cache]") {
  CHECK(completedPagesValidity(text("12"), integer(0), text("12:abc"), 3) == "12:abc@3");
  CHECK(completedPagesValidity(text("12"), integer(0), text("12:abc"), 4) != "12:abc@3");
  // The connection that answered is not known (Redis reconnected during the read).
  CHECK_FALSE(completedPagesValidity(text("12"), integer(0), text("12:abc"), 0));
  // A submission pending: its commit may already be visible, its settlement not yet.
  CHECK_FALSE(completedPagesValidity(text("12"), integer(1), text("12:abc"), 3));
  // A count the token does not name: raised by a settlement that kept the token (a
  // responses service from before tokens).
  CHECK_FALSE(completedPagesValidity(text("13"), integer(0), text("12:abc"), 3));
  CHECK_FALSE(completedPagesValidity(text("1"), integer(0), text("12:abc"), 3));
  CHECK_FALSE(completedPagesValidity(text("12"), integer(0), text("12:"), 3));
  CHECK_FALSE(completedPagesValidity(text("12"), integer(0), text("12"), 3));
  // No count or no token yet, or Redis did not answer or failed.
  CHECK_FALSE(
      completedPagesValidity(RedisReply{RedisReply::Type::kNil}, integer(0), text("12:abc"), 3));
  CHECK_FALSE(
      completedPagesValidity(text("12"), integer(0), RedisReply{RedisReply::Type::kNil}, 3));
  CHECK_FALSE(completedPagesValidity(std::nullopt, std::nullopt, std::nullopt, 3));
  CHECK_FALSE(
      completedPagesValidity(text("12"), RedisReply{RedisReply::Type::kError}, text("12:abc"), 3));
}

TEST_CASE("page key: every parameter that shapes the answer tells requests apart", "[cache]") {
  const PageKeyParts base{"link", "", "", 1, 20};
  auto with = [&base](auto change) {
    PageKeyParts parts = base;
    change(parts);
    return pageKey(parts);
  };
  const std::string plain = pageKey(base);
  CHECK(pageKey(base) == plain);
  CHECK(with([](auto& p) { p.link_uuid = "other"; }) != plain);
  CHECK(with([](auto& p) { p.ordering = "-submitted_at"; }) != plain);
  CHECK(with([](auto& p) { p.search = "word"; }) != plain);
  CHECK(with([](auto& p) { p.page = 2; }) != plain);
  CHECK(with([](auto& p) { p.page_size = 21; }) != plain);
  // A bound at zero (1970-01-01) is a bound, not its absence.
  CHECK(with([](auto& p) { p.since_micros = 0; }) != plain);
  CHECK(with([](auto& p) { p.until_micros = 0; }) != plain);
  CHECK(with([](auto& p) { p.since_micros = 0; }) != with([](auto& p) { p.until_micros = 0; }));
  // Parameters cannot spill into each other.
  CHECK(with([](auto& p) {
          p.ordering = "a";
          p.search = "b";
        }) != with([](auto& p) { p.ordering = "a1:b"; }));
}
