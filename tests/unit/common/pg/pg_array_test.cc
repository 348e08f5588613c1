#include "common/pg/pg_array.h"

#include <catch2/catch.hpp>

using feedback::PgArray;

TEST_CASE("pg array: an empty array", "[pg]") {
  CHECK(PgArray().text() == "{}");
  CHECK(PgArray().size() == 0);
}

TEST_CASE("pg array: every text element is quoted, so that it stays a value", "[pg]") {
  PgArray array;
  array.add("plain").add("").add("NULL").add("a, b").add("{x}").add(" padded ");
  CHECK(array.text() == R"({"plain","","NULL","a, b","{x}"," padded "})");
  CHECK(array.size() == 6);
}

TEST_CASE("pg array: quotes and backslashes are escaped, nothing else is", "[pg]") {
  PgArray array;
  array.add(R"(say "hi")").add(R"(C:\dir\)").add("\\\"").add("line\nbreak \xc3\xa9");
  CHECK(array.text() ==
        "{\"say \\\"hi\\\"\",\"C:\\\\dir\\\\\",\"\\\\\\\"\",\"line\nbreak \xc3\xa9\"}");
}

TEST_CASE("pg array: numbers and nulls", "[pg]") {
  PgArray array;
  array.add(int64_t{-42}).addNull().add("x").add(int64_t{0});
  CHECK(array.text() == R"({-42,NULL,"x",0})");
  CHECK(array.size() == 4);
}
