#include "common/pg/pg_array.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

using feedback::PgArray;
using E = PgArray::Element;

namespace {

std::string be32(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

// array_send's header of a one-dimensional array.
std::string header(uint32_t size, bool has_nulls, uint32_t oid) {
  return be32(1) + be32(has_nulls ? 1 : 0) + be32(oid) + be32(size) + be32(1);
}

}  // namespace

TEST_CASE("pg array: an empty array has no dimension", "[pg]") {
  PgArray array(E::kText);
  CHECK(array.bytes() == be32(0) + be32(0) + be32(25));
  CHECK(array.size() == 0);
}

TEST_CASE("pg array: text elements are sent as they are, with their length", "[pg]") {
  PgArray array(E::kText);
  array.add("a\"b\\").add("").add("NULL").add("\xc3\xa9");
  CHECK(array.size() == 4);
  CHECK(array.bytes() == header(4, false, 25) + be32(4) + "a\"b\\" + be32(0) + be32(4) + "NULL" +
                             be32(2) + "\xc3\xa9");
}

TEST_CASE("pg array: a null has length -1 and sets the has-nulls flag", "[pg]") {
  PgArray array(E::kText);
  array.add("x").addNull();
  CHECK(array.bytes() == header(2, true, 25) + be32(1) + "x" + be32(0xffffffff));
}

TEST_CASE("pg array: bigints are 8 bytes in network order", "[pg]") {
  PgArray array(E::kBigint);
  array.add(int64_t{1}).add(int64_t{-2});
  CHECK(array.bytes() == header(2, false, 20) + be32(8) + be32(0) + be32(1) + be32(8) +
                             be32(0xffffffff) + be32(0xfffffffe));
  CHECK_THROWS_AS(array.add("1"), std::invalid_argument);
}

TEST_CASE("pg array: UUIDs are their 16 bytes, in either case", "[pg]") {
  PgArray array(E::kUuid);
  array.add("00112233-4455-6677-8899-aAbBcCdDeEfF");
  CHECK(array.bytes() == header(1, false, 2950) + be32(16) +
                             std::string("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd"
                                         "\xee\xff",
                                         16));
  CHECK_THROWS_AS(array.add(int64_t{1}), std::invalid_argument);
}

TEST_CASE("pg array: a malformed UUID is refused and leaves the array as it was", "[pg]") {
  PgArray array(E::kUuid);
  array.add("00112233-4455-6677-8899-aabbccddeeff");
  const std::string before(array.bytes());
  for (const char* bad :
       {"", "00112233445566778899aabbccddeeff", "00112233-4455-6677-8899-aabbccddeefg",
        "0011223-34455-6677-8899-aabbccddeeff", "00112233-4455-6677-8899-aabbccddeeff0"}) {
    CHECK_THROWS_AS(array.add(bad), std::invalid_argument);
  }
  CHECK(array.size() == 1);
  CHECK(array.bytes() == before);
}
