#include "common/core/ascii.h"

#include <catch2/catch.hpp>

using feedback::asciiLowercase;
using feedback::asciiUppercase;
using feedback::equalsIgnoringAsciiCase;
using feedback::kHttpWhitespace;
using feedback::trim;

TEST_CASE("ascii: trim takes whitespace off both ends only", "[ascii]") {
  CHECK(trim("  a b \t\r\n") == "a b");
  CHECK(trim(" \t\v\f") == "");
  CHECK(trim("") == "");
  CHECK(trim("x") == "x");
  // HTTP's optional whitespace is spaces and tabs: a line break is not trimmed.
  CHECK(trim(" \tBearer k\t ", kHttpWhitespace) == "Bearer k");
  CHECK(trim("\r\nk\n", kHttpWhitespace) == "\r\nk\n");
}

TEST_CASE("ascii: case changes touch A-Z only, never UTF-8 bytes", "[ascii]") {
  CHECK(asciiLowercase("Content-TYPE: Ünïcode") == "content-type: Ünïcode");
  CHECK(asciiUppercase("links-1") == "LINKS-1");
  CHECK(equalsIgnoringAsciiCase("BeArEr", "bearer"));
  CHECK_FALSE(equalsIgnoringAsciiCase("bearer", "bearer "));
  CHECK_FALSE(equalsIgnoringAsciiCase("É", "é"));
}
