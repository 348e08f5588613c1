#include "services/gateway/cache/link_cache.h"

#include <catch2/catch.hpp>

using feedback::gateway::LinkCache;
using feedback::gateway::LinkDocument;

namespace {
// A document that counts as its text's size (as one without its link would).
std::shared_ptr<const LinkDocument> body(std::string text) {
  const std::size_t size = text.size();
  return std::make_shared<const LinkDocument>(LinkDocument{std::move(text), 0, nullptr, size});
}
}  // namespace

TEST_CASE("link cache: served only for the same workspace and exact version", "[cache]") {
  LinkCache cache(10, 1 << 20);
  cache.store("l1", "ws1", 3, body("v3"));
  REQUIRE(cache.find("l1", "ws1", 3));
  CHECK(cache.find("l1", "ws1", 3)->json == "v3");
  CHECK_FALSE(cache.find("l1", "ws1", 4));
  CHECK_FALSE(cache.find("l1", "ws1", 2));
  CHECK_FALSE(cache.find("l1", "ws2", 3));
  CHECK_FALSE(cache.find("l2", "ws1", 3));
}

TEST_CASE("link cache: a document gets its response count when served", "[cache]") {
  LinkDocument doc{R"({"a":1,"response_count":0,"b":2})", 24};
  CHECK(doc.withCount(0) == R"({"a":1,"response_count":0,"b":2})");
  CHECK(doc.withCount(1234567) == R"({"a":1,"response_count":1234567,"b":2})");
}

TEST_CASE("link cache: an older document never replaces a newer one", "[cache]") {
  LinkCache cache(10, 1 << 20);
  cache.store("l1", "ws1", 5, body("v5"));
  cache.store("l1", "ws1", 4, body("v4"));
  CHECK(cache.find("l1", "ws1", 5)->json == "v5");
  cache.store("l1", "ws1", 6, body("v6 longer"));
  CHECK(cache.find("l1", "ws1", 6)->json == "v6 longer");
  CHECK(cache.entries() == 1);
  CHECK(cache.bytes() == 9);
}

TEST_CASE("link cache: bounded by entries and bytes, oldest evicted first", "[cache]") {
  LinkCache by_count(2, 1 << 20);
  by_count.store("a", "ws", 1, body("a"));
  by_count.store("b", "ws", 1, body("b"));
  by_count.store("c", "ws", 1, body("c"));
  CHECK(by_count.entries() == 2);
  CHECK_FALSE(by_count.find("a", "ws", 1));
  CHECK(by_count.find("c", "ws", 1));

  LinkCache by_bytes(100, 10);
  by_bytes.store("a", "ws", 1, body("12345"));
  by_bytes.store("b", "ws", 1, body("12345"));
  by_bytes.store("c", "ws", 1, body("123"));
  CHECK(by_bytes.bytes() <= 10);
  CHECK_FALSE(by_bytes.find("a", "ws", 1));
  by_bytes.store("huge", "ws", 1, body(std::string(11, 'x')));
  CHECK_FALSE(by_bytes.find("huge", "ws", 1));

  LinkCache disabled(0, 0);
  disabled.store("a", "ws", 1, body("a"));
  CHECK(disabled.entries() == 0);
}
