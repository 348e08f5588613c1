#include "common/core/text_map.h"

#include <catch2/catch.hpp>
#include <string>

using namespace feedback;

TEST_CASE("text map: FNV-1a 64 gives the published test vectors", "[core]") {
  // From the FNV reference (draft-eastlake-fnv): ids stored with it must never change.
  STATIC_REQUIRE(fnv1a64("") == 0xcbf29ce484222325ULL);
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cULL);
  CHECK(fnv1a64("foobar") == 0x85944171f73967e8ULL);
}

TEST_CASE("text map: looked up by a view of the key", "[core]") {
  TextMap<int> map;
  map.emplace("choice", 1);
  const std::string text = "a choice made";
  CHECK(map.find(std::string_view(text).substr(2, 6))->second == 1);
  CHECK(map.find(std::string_view(text).substr(2, 5)) == map.end());
}
