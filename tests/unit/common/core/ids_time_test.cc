#include <catch2/catch.hpp>
#include <set>

#include "common/core/ids.h"
#include "common/core/time.h"

TEST_CASE("ids: UUIDs are version 4, lowercase and hyphenated", "[ids]") {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    for (const std::string& id : {feedback::newUuid(), feedback::newRequestId()}) {
      REQUIRE(feedback::isUuid(id));
      CHECK(id[14] == '4');
      CHECK(std::string("89ab").find(id[19]) != std::string::npos);
      seen.insert(id);
    }
  }
  CHECK(seen.size() == 400);
}

TEST_CASE("ids: isUuid accepts only the lowercase hyphenated form", "[ids]") {
  CHECK(feedback::isUuid("123e4567-e89b-12d3-a456-426614174000"));
  CHECK_FALSE(feedback::isUuid("123E4567-E89B-12D3-A456-426614174000"));
  CHECK_FALSE(feedback::isUuid("123e4567e89b12d3a456426614174000"));
  CHECK_FALSE(feedback::isUuid("123e4567-e89b-12d3-a456-42661417400g"));
  CHECK_FALSE(feedback::isUuid("not-a-uuid"));
  CHECK_FALSE(feedback::isUuid(""));
}

TEST_CASE("ids: uuidBytes reads the hyphenated form in either case, nothing else", "[ids]") {
  const auto bytes = feedback::uuidBytes("00112233-4455-6677-8899-aAbBcCdDeEfF");
  REQUIRE(bytes);
  for (std::size_t i = 0; i < bytes->size(); ++i) CHECK((*bytes)[i] == 0x11 * i);
  for (const char* bad :
       {"", "00112233445566778899aabbccddeeff", "00112233-4455-6677-8899-aabbccddeefg",
        "0011223-34455-6677-8899-aabbccddeeff", "00112233-4455-6677-8899-aabbccddeeff0",
        "00112233-4455-6677-8899_aabbccddeeff"}) {
    CHECK_FALSE(feedback::uuidBytes(bad));
  }
}

TEST_CASE("time: timestamps always carry six fractional digits and Z", "[time]") {
  CHECK(feedback::formatTimestamp(0) == "1970-01-01T00:00:00.000000Z");
  CHECK(feedback::formatTimestamp(1700000000123456) == "2023-11-14T22:13:20.123456Z");
  CHECK(feedback::formatTimestamp(1700000000000001) == "2023-11-14T22:13:20.000001Z");
  CHECK(feedback::formatTimestamp(-1) == "1969-12-31T23:59:59.999999Z");
  CHECK(feedback::nowMicros() > 1700000000000000);
}

TEST_CASE("time: the calendar is right across leap years and centuries", "[time]") {
  CHECK(feedback::formatTimestamp(951782400000000) == "2000-02-29T00:00:00.000000Z");
  CHECK(feedback::formatTimestamp(951868799999999) == "2000-02-29T23:59:59.999999Z");
  CHECK(feedback::formatTimestamp(4107542400000000) == "2100-03-01T00:00:00.000000Z");
  CHECK(feedback::formatTimestamp(1798761599000000) == "2026-12-31T23:59:59.000000Z");
  CHECK(feedback::formatTimestamp(-86400000000) == "1969-12-31T00:00:00.000000Z");
  CHECK(feedback::formatTimestamp(253402300799999999) == "9999-12-31T23:59:59.999999Z");
}

TEST_CASE("time: ISO 8601 timestamps as clients write them", "[time]") {
  using feedback::formatTimestamp;
  using feedback::parseTimestamp;
  auto text = [](const char* t) {
    auto p = parseTimestamp(t);
    return p ? formatTimestamp(p->micros) : std::string("invalid");
  };
  CHECK(text("2024-02-29T12:34:56.123456Z") == "2024-02-29T12:34:56.123456Z");
  CHECK(text("2024-02-29T12:34:56Z") == "2024-02-29T12:34:56.000000Z");
  CHECK(text("2024-02-29 12:34") == "2024-02-29T12:34:00.000000Z");
  CHECK(text("2024-02-29T12:34:56.5+02:00") == "2024-02-29T10:34:56.500000Z");
  CHECK(text("2024-03-01T01:00:00-0130") == "2024-03-01T02:30:00.000000Z");
  CHECK(text("1970-01-01T00:00:00Z") == "1970-01-01T00:00:00.000000Z");
  CHECK(text("2024-01-31") == "2024-01-31T00:00:00.000000Z");
  CHECK(parseTimestamp("2024-01-31")->date_only);
  CHECK_FALSE(parseTimestamp("2024-01-31T00:00Z")->date_only);
  for (const char* bad : {"", "2024", "2024-13-01", "2023-02-29", "2024-01-32", "24-01-01",
                          "2024-01-01T25:00Z", "2024-01-01T10:00:00Q", "2024-01-01T10:00:00.Z",
                          "2024-01-01T10:00+2", "2024-01-01X", "yesterday"}) {
    INFO(bad);
    CHECK_FALSE(parseTimestamp(bad));
  }
}
