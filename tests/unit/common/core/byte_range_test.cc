#include "common/core/byte_range.h"

#include <catch2/catch.hpp>

using feedback::parseByteRange;
using feedback::resolveByteRange;

namespace {

// "first+length", or "none" / "whole" (no range honoured).
std::string resolved(std::string_view header, int64_t size) {
  auto spec = parseByteRange(header);
  if (!spec) return "whole";
  auto range = resolveByteRange(*spec, size);
  if (!range) return "none";
  return std::to_string(range->first) + "+" + std::to_string(range->length);
}

}  // namespace

TEST_CASE("byte ranges: first bytes, a middle, an open end, a suffix", "[core]") {
  CHECK(resolved("bytes=0-99", 1000) == "0+100");
  CHECK(resolved("bytes=0-0", 1000) == "0+1");
  CHECK(resolved("bytes=500-599", 1000) == "500+100");
  CHECK(resolved("bytes=900-", 1000) == "900+100");
  CHECK(resolved("bytes=-100", 1000) == "900+100");
  CHECK(resolved(" Bytes=10-19 ", 1000) == "10+10");
  // Clipped to the content.
  CHECK(resolved("bytes=990-2000", 1000) == "990+10");
  CHECK(resolved("bytes=-5000", 1000) == "0+1000");
}

TEST_CASE("byte ranges: past the end is unsatisfiable", "[core]") {
  CHECK(resolved("bytes=1000-", 1000) == "none");
  CHECK(resolved("bytes=1000-1001", 1000) == "none");
  CHECK(resolved("bytes=-0", 1000) == "none");
  CHECK(resolved("bytes=0-", 0) == "none");
}

TEST_CASE("byte ranges: what cannot be honoured serves the whole", "[core]") {
  for (const char* header :
       {"", "bytes", "bytes=", "bytes=-", "items=0-9", "bytes=9-0", "bytes=0-9,20-29", "bytes=a-9",
        "bytes=+1-9", "bytes=0-+9", "bytes=99999999999999999999-", "bytes=--9"}) {
    CAPTURE(header);
    CHECK(resolved(header, 1000) == "whole");
  }
}
